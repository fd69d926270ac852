// A new conversation the server will not make, as a user meets it in Debian's chromium against
// `wrangler dev`: the form opens the conversation at once and its socket (?new=1) asks for it;
// past the per-user limit the socket says why, and the page shows that reason, takes no message,
// and does not keep trying.
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { launchChromium } from "./browser";
import { type Stack, startStack } from "./stack";

let stack: Stack;
let browser: Browser;
beforeAll(async () => {
  stack = await startStack(
    (mock) => void mock.onMessage(/.*/, { content: "Hello from the mock model." }),
    { vars: { RATE_LIMIT_NEW_CONVERSATION: "1/600" } },
  );
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

it("past the limit on new conversations, the page says why and sends nothing", async () => {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${stack.url}/#token=${stack.token}`);
  const start = page.getByRole("button", { name: "New conversation", exact: true });
  const create = async (title: string) => {
    await start.click();
    const form = page.getByRole("form", { name: "New conversation" });
    await form.getByLabel("Title").fill(title);
    await form.getByRole("button", { name: "Create" }).click();
    await page.getByRole("heading", { name: title }).waitFor();
  };
  const sockets: string[] = [];
  page.on("websocket", (ws) => sockets.push(ws.url()));

  // The first is within the limit: it is made, and answers.
  await create("Within the limit");
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("hello");
  await box.press("Enter");
  await page
    .getByTestId("message-assistant")
    .and(page.locator('[data-status="complete"]'))
    .waitFor({ timeout: 30_000 });

  // The second is over it: the server's reason is on screen, and there is no message box.
  await create("Over the limit");
  await expect
    .poll(() => page.getByRole("alert").allTextContents(), { timeout: 15_000 })
    .toContainEqual(expect.stringMatching(/Too many new conversations: at most 1 per 600 s/));
  // The refusal's frame comes before the socket's close, which takes the box away.
  await expect.poll(() => page.getByRole("textbox", { name: "Message" }).count()).toBe(0);
  // The list keeps only conversations that exist.
  const list = page.getByRole("navigation", { name: "Conversations" });
  await expect.poll(() => list.getByText("Over the limit").count()).toBe(0);
  expect(await list.getByText("Within the limit").count()).toBe(1);
  // It stopped: no socket tried again after the refusal.
  const tries = sockets.filter(
    (url) => new URL(url).searchParams.get("title") === "Over the limit",
  );
  await page.waitForTimeout(1_500);
  expect(
    sockets.filter((url) => new URL(url).searchParams.get("title") === "Over the limit"),
  ).toEqual(tries);
  expect(tries).toHaveLength(1);
  await context.close();
});
