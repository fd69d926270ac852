// "API tokens & sessions" in the settings panel, in Debian's chromium against the real stack:
// what it lists, "Sign out everywhere" and revoking the token this browser signed in with; and
// a page whose session ended elsewhere stops its live connection and says it was signed out.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { launchChromium, type PageWatch, watchPage } from "./browser";
import { type Stack, startStack } from "./stack";

let stack: Stack;
let browser: Browser;
let conversationId: string;
beforeAll(async () => {
  stack = await startStack((mock) => mock.onMessage(/.*/, { content: "Hello." }));
  browser = await launchChromium();
  const created = await bearer("/api/conversations", { method: "POST", body: "{}" });
  conversationId = ((await created.json()) as { id: string }).id;
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

const bearer = (path: string, init: RequestInit = {}) =>
  fetch(`${stack.url}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${stack.token}`, "content-type": "application/json" },
  });

/** A browser signed in through the start link, with the conversation open. */
async function signedIn(): Promise<{ page: Page; watch: PageWatch }> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  const watch = watchPage(page, stack.url);
  await page.goto(`${stack.url}/#token=${stack.token}`);
  await page.getByRole("button", { name: "New conversation", exact: true }).waitFor();
  await page.goto(`${stack.url}/?c=${conversationId}`);
  return { page, watch };
}

async function openAccessSection(page: Page) {
  await page.getByRole("button", { name: "Settings" }).click();
  const section = page.getByRole("region", { name: "API tokens & sessions" });
  await section.getByRole("list", { name: "API tokens" }).waitFor();
  return section;
}

const signInForm = (page: Page) => page.getByRole("button", { name: "Sign in" });

it("lists the token and both browsers; 'Sign out everywhere' signs out this one and the other", async () => {
  const { page, watch } = await signedIn();
  const other = await signedIn();
  const section = await openAccessSection(page);

  const tokens = section.getByRole("list", { name: "API tokens" }).getByRole("listitem");
  await expect.poll(() => tokens.count()).toBe(1);
  expect(await tokens.first().textContent()).toMatch(
    /\(this one\)Created .* · Never expires · Last used/,
  );
  const browsers = section.getByRole("list", { name: "Browser sessions" }).getByRole("listitem");
  await expect.poll(() => browsers.count()).toBe(2);
  expect(await browsers.allTextContents()).toEqual([
    expect.stringMatching(/^This browser with Token /),
    expect.stringMatching(/^Another browser with Token /),
  ]);

  await section.getByRole("button", { name: "Sign out everywhere" }).click();
  await section.getByRole("button", { name: "Sign out everywhere now" }).click();
  await signInForm(page).waitFor();
  // The other browser's session is gone too: its open socket closes (4401) at the next message,
  // and the page says so instead of reconnecting; reloaded, it asks to sign in.
  const box = other.page.getByRole("textbox", { name: "Message" });
  await box.fill("still there?");
  await box.press("Enter");
  await other.page.getByTestId("signed-out").waitFor();
  expect(await other.page.getByTestId("signed-out").textContent()).toContain("You were signed out");
  await other.page.reload();
  await signInForm(other.page).waitFor();
  // Tokens keep working.
  expect((await bearer("/api/conversations")).status).toBe(200);
  expect(watch.dialogs).toEqual([]);
  expect(watch.outside).toEqual([]);
});

it("revoking the token this browser signed in with signs it out, and the token stops working", async () => {
  const { page } = await signedIn();
  const section = await openAccessSection(page);
  await section.getByRole("button", { name: /^Revoke Token / }).click();
  await expect.poll(() => section.textContent()).toContain("revoking it signs you out here too");
  await section.getByRole("button", { name: /^Revoke Token \w+$/ }).click();
  await signInForm(page).waitFor();
  expect((await bearer("/api/conversations")).status).toBe(401);
});
