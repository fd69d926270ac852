// A message written offline outlives its tab: closed before the network came back, the
// conversation opened again sends it once, with its file (outbox.ts, in Chromium's localStorage);
// a page reloaded offline takes a message in the user's own conversation, sent once back online.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { launchChromium } from "./browser";
import { type Stack, startStack } from "./stack";

const TURN_TIMEOUT = 60_000;

vi.setConfig({ testTimeout: 240_000, hookTimeout: 240_000 });

let stack: Stack;
let browser: Browser;
beforeAll(async () => {
  stack = await startStack((mock) => {
    mock.onMessage(/.*/, { content: "I read the file." });
  });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

async function create(): Promise<string> {
  const res = await fetch(`${stack.url}/api/conversations`, {
    method: "POST",
    headers: { authorization: `Bearer ${stack.token}`, "content-type": "application/json" },
    body: JSON.stringify({ title: "Train", provider: "anthropic" }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

const url = (id: string) => `${stack.url}/?c=${id}#token=${stack.token}`;

async function attachText(page: Page, name: string, body: string) {
  const chooser = page.waitForEvent("filechooser");
  await page.getByRole("button", { name: "Attach files" }).click();
  await (await chooser).setFiles([{ name, mimeType: "text/plain", buffer: Buffer.from(body) }]);
  await expect
    .poll(
      () =>
        page
          .getByRole("list", { name: "Files for the next message" })
          .getByRole("listitem")
          .filter({ hasText: name })
          .textContent(),
      { timeout: 30_000 },
    )
    .toContain("attached");
}

it("a message sent offline in a tab closed before the network came back goes once when the conversation opens again", async () => {
  const id = await create();
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  await page.goto(url(id));
  await page.getByRole("textbox", { name: "Message" }).waitFor();
  await attachText(page, "notes.txt", "written on a train");
  await context.setOffline(true);
  await page.getByTestId("offline").waitFor();
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("Read my notes when you can");
  await box.press("Enter");
  await page.getByRole("list", { name: "Waiting to be sent" }).waitFor();
  await page.close();

  await context.setOffline(false);
  const again = await context.newPage();
  await again.goto(url(id));
  await again
    .getByTestId("message-assistant")
    .and(again.locator('[data-status="complete"]'))
    .waitFor({ timeout: TURN_TIMEOUT });
  const sent = again.getByTestId("message-user");
  expect(await sent.allTextContents()).toEqual([
    expect.stringContaining("Read my notes when you can"),
  ]);
  expect(await sent.getByTestId("message-attachment").allTextContents()).toEqual([
    expect.stringContaining("notes.txt"),
  ]);
  expect(await again.getByRole("list", { name: "Waiting to be sent" }).count()).toBe(0);
  // Acknowledged, it is forgotten: a reload sends nothing again.
  await again.reload();
  await again.getByTestId("message-assistant").waitFor();
  await again.waitForTimeout(1000);
  expect(await again.getByTestId("message-user").count()).toBe(1);
  await context.close();
});

it("reloaded offline, the user's own conversation opens its box; what they send goes once the network is back", async () => {
  const id = await create();
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  await page.goto(url(id));
  const box = page.getByRole("textbox", { name: "Message" });
  await expect.poll(() => box.isEnabled(), { timeout: 30_000 }).toBe(true);
  // The service worker keeps the page's shell for a start without the network.
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await context.setOffline(true);
  await page.reload();
  // Not the sign-in page: the conversation, its box open (the role this browser last knew).
  await expect.poll(() => box.isEnabled(), { timeout: 30_000 }).toBe(true);
  expect(await page.getByRole("button", { name: "Sign in" }).count()).toBe(0);
  await box.fill("Written after an offline reload");
  await box.press("Enter");
  await page.getByRole("list", { name: "Waiting to be sent" }).waitFor();

  await context.setOffline(false);
  await page
    .getByTestId("message-assistant")
    .and(page.locator('[data-status="complete"]'))
    .waitFor({ timeout: TURN_TIMEOUT });
  expect(await page.getByTestId("message-user").allTextContents()).toEqual([
    expect.stringContaining("Written after an offline reload"),
  ]);
  await context.close();
});
