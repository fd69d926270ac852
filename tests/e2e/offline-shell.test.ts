// The installed app opens offline whole: every part of it loaded by `import()` (the conversation,
// the new-conversation form, never opened online) comes from the service worker's cache, even
// once the browser's HTTP cache has dropped it.
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { launchChromium } from "./browser";
import { type Stack, startStack } from "./stack";

vi.setConfig({ testTimeout: 120_000, hookTimeout: 180_000 });

let stack: Stack;
let browser: Browser;
beforeAll(async () => {
  stack = await startStack((mock) => {
    mock.onMessage(/.*/, { content: "Noted." });
  });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

it("reloaded offline with the HTTP cache emptied, the conversation and the new-conversation form open", async () => {
  const res = await fetch(`${stack.url}/api/conversations`, {
    method: "POST",
    headers: { authorization: `Bearer ${stack.token}`, "content-type": "application/json" },
    body: JSON.stringify({ title: "Field notes", provider: "anthropic" }),
  });
  expect(res.status).toBe(201);
  const { id } = (await res.json()) as { id: string };
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(`${stack.url}/?c=${id}#token=${stack.token}`);
  const box = page.getByRole("textbox", { name: "Message" });
  await expect.poll(() => box.isEnabled(), { timeout: 30_000 }).toBe(true);
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));

  // The browser drops what it kept over HTTP (as it may any time): only the worker's cache is left.
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.clearBrowserCache");
  await cdp.detach();
  await context.setOffline(true);
  await page.reload();
  await page.getByTestId("offline-app").waitFor({ timeout: 15_000 });
  await expect.poll(() => box.isEnabled(), { timeout: 30_000 }).toBe(true);

  await page.getByRole("button", { name: "New conversation" }).click();
  await page.getByRole("form", { name: "New conversation" }).waitFor({ timeout: 15_000 });
  expect(errors).toEqual([]);
  await context.close();
});
