// Signing in to an MCP server that needs OAuth, in Chromium against the real stack: an MCP server
// on 127.0.0.1 protected by a local authorization server built from the MCP SDK's own
// server-side auth (tests/support/oauth-protected-server.ts). The user adds the server, the
// test says it needs a sign-in, Connect opens the consent page in a popup, the popup closes and
// Settings shows Connected; a turn calls a protected tool with this user's token, an expired
// token is refreshed without the user noticing, and a token revoked at the provider leads to
// Sign in again.
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type ProtectedServer, startProtectedServer } from "../support/oauth-protected-server";
import { launchChromium, type PageWatch, watchPage } from "./browser";
import { type Stack, startStack } from "./stack";

const SCREENSHOTS = "test-results/screenshots";
const LOGIN = "alice@example.com";
const ASK = "who am i on the protected server";
const TURN_TIMEOUT = 60_000;

let stack: Stack;
let server: ProtectedServer;
let browser: Browser;
let page: Page;
let watch: PageWatch;

beforeAll(async () => {
  server = await startProtectedServer();
  stack = await startStack((mock) => {
    mock.on(
      { toolResultContains: "signed in as" },
      {
        toolCalls: [
          {
            name: "response_formatter",
            arguments: JSON.stringify({
              conversation: [{ type: "text", content: "The protected server knows who you are." }],
            }),
          },
        ],
      },
    );
    mock.onMessage(new RegExp(ASK), {
      toolCalls: [{ id: "w1", name: "protected__whoami", arguments: "{}" }],
    });
    mock.onMessage(/.*/, { content: "Answered without the protected server." });
  });
  browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  page = await context.newPage();
  watch = watchPage(page, stack.url);
  await page.goto(`${stack.url}/#token=${stack.token}`);
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  await server?.stop();
});

interface Seen {
  seen: Array<{ login: string; method: string; authorization: string }>;
}
const seen = async () => ((await (await fetch(`${server.issuer}/test/seen`)).json()) as Seen).seen;
const control = (what: "expire" | "revoke") =>
  fetch(`${server.issuer}/test/${what}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ login: LOGIN }),
  });

async function openSettings(): Promise<Locator> {
  await page.getByRole("button", { name: "Settings" }).click();
  return page.getByRole("dialog", { name: "Settings" });
}

async function closeSettings(settings: Locator): Promise<void> {
  await page.keyboard.press("Escape");
  await settings.waitFor({ state: "detached" });
}

async function newConversation(): Promise<void> {
  await page.getByRole("button", { name: "New conversation", exact: true }).click();
  const form = page.getByRole("form", { name: "New conversation" });
  const before = new URL(page.url()).searchParams.get("c");
  await form.getByRole("button", { name: "Create" }).click();
  await page.waitForURL((url) => ![null, before].includes(url.searchParams.get("c")));
  await page.getByRole("textbox", { name: "Message" }).waitFor();
}

/** Sends `text` in a new conversation and returns its answer once the turn is over. */
async function askInNewConversation(text: string): Promise<Locator> {
  await newConversation();
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill(text);
  await box.press("Enter");
  const answer = page.getByTestId("message-assistant").first();
  await answer.and(page.locator('[data-status="complete"]')).waitFor({ timeout: TURN_TIMEOUT });
  return answer;
}

/** The sign-in popup: what Connect opened, through the consent page, until it closes itself. */
async function consentInPopup(press: () => Promise<void>): Promise<void> {
  const [popup] = await Promise.all([page.waitForEvent("popup"), press()]);
  await popup.getByLabel("Sign in as").fill(LOGIN);
  await popup.screenshot({ path: `${SCREENSHOTS}/mcp-sign-in-consent.png` });
  const closed = popup.waitForEvent("close", { timeout: 15_000 });
  await popup.getByRole("button", { name: "Allow" }).click();
  await closed;
}

const signInOf = (settings: Locator) => settings.getByTestId("sign-in-protected");

it("adds a server that needs sign-in, connects in a popup and shows it Connected with its tools", async () => {
  await newConversation();
  const settings = await openSettings();
  const form = settings.getByRole("form", { name: "Add MCP server" });
  await form.getByLabel("Name").fill("protected");
  await form.getByLabel("URL").fill(server.url);
  await form.getByRole("button", { name: "Test connection" }).click();
  await expect
    .poll(() => form.getByRole("alert").textContent(), { timeout: 15_000 })
    .toContain("needs you to sign in");

  await consentInPopup(() => form.getByRole("button", { name: "Add and connect" }).click());
  const status = signInOf(settings).getByRole("status");
  await expect.poll(() => status.textContent(), { timeout: 15_000 }).toContain("Connected");
  expect(await status.textContent()).toContain("scopes: mcp:tools");

  await signInOf(settings).getByRole("button", { name: "Show tools" }).click();
  await expect
    .poll(() => signInOf(settings).locator(".tool-list").textContent(), { timeout: 15_000 })
    .toContain("whoami");
  await page.screenshot({ path: `${SCREENSHOTS}/mcp-sign-in-connected.png` });
  // Tokens stay on the server: the API the page reads never returns them.
  const listed = await page.evaluate(async () => (await fetch("/api/mcp-servers")).text());
  expect(listed).not.toMatch(/at-|rt-/);
  await closeSettings(settings);
});

it("a turn calls the protected tool with this user's token", async () => {
  const mark = (await seen()).length;
  const answer = await askInNewConversation(ASK);
  const call = answer.getByTestId("tool-call");
  await expect.poll(() => call.getAttribute("data-status")).toBe("done");
  expect(await call.textContent()).toContain("signed in as alice@example.com");
  expect(await answer.textContent()).toContain("The protected server knows who you are.");
  const calls = (await seen()).slice(mark).filter((r) => r.method === "tools/call");
  expect(calls).toHaveLength(1);
  expect(calls[0]!.login).toBe(LOGIN);
  expect(calls[0]!.authorization).toMatch(/^Bearer at-alice@example\.com-/);
});

it("refreshes an expired token without the user noticing", async () => {
  const before = (await seen()).filter((r) => r.method === "tools/call").at(-1)!.authorization;
  await control("expire");
  const mark = (await seen()).length;
  const answer = await askInNewConversation(ASK);
  const call = answer.getByTestId("tool-call");
  await expect.poll(() => call.getAttribute("data-status")).toBe("done");
  expect(await call.textContent()).toContain("signed in as alice@example.com");
  expect(await answer.textContent()).not.toContain("sign in");
  // The refused old token, then a fresh one from the refresh.
  const after = (await seen()).slice(mark).filter((r) => r.method === "tools/call");
  expect(after.at(-1)!.authorization).toMatch(/^Bearer at-alice@example\.com-/);
  expect(after.at(-1)!.authorization).not.toBe(before);
  const settings = await openSettings();
  await expect
    .poll(() => signInOf(settings).getByRole("status").textContent(), { timeout: 15_000 })
    .toContain("Connected");
  await closeSettings(settings);
});

it("a sign-in revoked at the provider: the turn goes on without the server and says Sign in again", async () => {
  await control("revoke");
  const answer = await askInNewConversation("hello after the revocation");
  expect(await answer.textContent()).toContain("Answered without the protected server.");
  expect(await answer.locator(".tool-log").textContent()).toContain(
    "'protected' needs you to sign in again",
  );
  const settings = await openSettings();
  await expect
    .poll(() => signInOf(settings).getByRole("status").textContent(), { timeout: 15_000 })
    .toContain("expired or was revoked");
  await signInOf(settings).getByRole("button", { name: "Sign in again" }).waitFor();
  await page.screenshot({ path: `${SCREENSHOTS}/mcp-sign-in-again.png` });
  await closeSettings(settings);
  expect(watch.outside).toEqual([]);
  expect(watch.dialogs).toEqual([]);
});

it("Connect in the timeline signs in again from the answer that skipped the server, and asks again", async () => {
  const answer = page.getByTestId("message-assistant").first();
  const notice = answer.getByTestId("sign-in-notice");
  expect(await notice.textContent()).toContain("needs you to sign in again");
  await page.screenshot({ path: `${SCREENSHOTS}/mcp-sign-in-timeline.png` });
  await consentInPopup(() => notice.getByRole("button", { name: "Connect protected" }).click());
  await expect
    .poll(() => notice.getByRole("status").textContent(), { timeout: 15_000 })
    .toContain("Connected to protected");
  // The question that went without the server can be asked again with it, in one press.
  await notice.getByRole("button", { name: "Ask again with protected" }).click();
  const questions = page.getByTestId("message-user");
  await expect.poll(() => questions.count()).toBe(2);
  expect(await questions.nth(1).textContent()).toContain("hello after the revocation");
  await page
    .getByTestId("message-assistant")
    .nth(1)
    .and(page.locator('[data-status="complete"]'))
    .waitFor({ timeout: TURN_TIMEOUT });
  expect(await notice.getByRole("status").textContent()).toContain("asked again below");
  const settings = await openSettings();
  await expect
    .poll(() => signInOf(settings).getByRole("status").textContent(), { timeout: 15_000 })
    .toContain("Connected");
  await closeSettings(settings);
  const answered = await askInNewConversation(ASK);
  expect(await answered.getByTestId("tool-call").textContent()).toContain("signed in as");
});

it("with popups blocked, the sign-in runs in the page and comes back to Settings with the result", async () => {
  const conversation = new URL(page.url()).searchParams.get("c");
  const settings = await openSettings();
  await page.evaluate(() => {
    window.open = () => null;
  });
  await signInOf(settings).getByRole("button", { name: "Sign in again" }).click();
  await page.getByLabel("Sign in as").fill(LOGIN);
  await page.getByRole("button", { name: "Allow" }).click();
  // The callback page, then back to the app: the same conversation, Settings open on the result.
  const notice = page.getByTestId("settings-notice");
  await notice.waitFor({ timeout: 15_000 });
  expect(await notice.textContent()).toBe("Signed in: the MCP server is connected.");
  await expect
    .poll(() =>
      signInOf(page.getByRole("dialog", { name: "Settings" }))
        .getByRole("status")
        .textContent(),
    )
    .toContain("Connected");
  const back = new URL(page.url());
  expect(back.hash).toBe("");
  expect(back.searchParams.get("c")).toBe(conversation);
  await page.screenshot({ path: `${SCREENSHOTS}/mcp-sign-in-redirect-back.png` });
  // The page went to the authorization server and nowhere else.
  expect(watch.outside.every((u) => u.startsWith(server.issuer))).toBe(true);
});
