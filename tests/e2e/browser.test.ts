import { mkdirSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type Stack, startStack } from "./stack";

const SCREENSHOTS = "test-results/screenshots";
const STORY = Array.from({ length: 40 }, (_, i) => `Line ${i + 1} of the slow story.`).join(" ");

let stack: Stack;
let browser: Browser;
beforeAll(async () => {
  stack = await startStack((mock) => {
    mock.onMessage(/slow story/, { content: STORY }, { chunkSize: 8, latency: 40 });
    mock.onMessage(/.*/, { content: "Hello from the mock model." });
  });
  browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  mkdirSync(SCREENSHOTS, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

it("signs in from the start link, chats, and after a reload mid-reply shows the complete answer", async () => {
  const page = await browser.newPage();
  const outside: string[] = [];
  page.on("request", (r) => {
    if (!r.url().startsWith(stack.url) && !r.url().startsWith("data:")) outside.push(r.url());
  });
  await page.goto(`${stack.url}/#token=${stack.token}`);
  await page.getByRole("button", { name: "New conversation" }).click();
  await page.getByRole("button", { name: "Create" }).click();
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("hello");
  await box.press("Enter");
  await expect
    .poll(() => page.getByTestId("message-assistant").first().textContent(), { timeout: 15_000 })
    .toContain("Hello from the mock model.");

  await box.fill("tell me the slow story");
  await box.press("Enter");
  await expect
    .poll(() => page.getByTestId("message-assistant").nth(1).textContent(), { timeout: 15_000 })
    .toContain("Line 2");
  await page.screenshot({ path: `${SCREENSHOTS}/chat-streaming.png` });
  // The session cookie and the open conversation (in the address) survive the reload.
  await page.reload();
  await expect
    .poll(() => page.getByTestId("message-assistant").nth(1).getAttribute("data-status"), {
      timeout: 20_000,
    })
    .toBe("complete");
  expect(await page.getByTestId("message-assistant").nth(1).textContent()).toContain(STORY);
  await page.screenshot({ path: `${SCREENSHOTS}/chat-after-reload.png` });
  expect(outside).toEqual([]);
});
