// Regenerate and the versions of an answer in Chromium against the real stack: each Regenerate
// opens a branch with a new answer, the origin keeps its own, and ‹ n/m › moves between them.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { launchChromium, watchPage } from "./browser";
import { type Stack, startStack } from "./stack";

const TURN_TIMEOUT = 60_000;
vi.setConfig({ testTimeout: 300_000, hookTimeout: 400_000 });

let stack: Stack;
let browser: Browser;
beforeAll(async () => {
  let versions = 0;
  stack = await startStack((mock) => {
    mock.on({ systemMessage: "Name this conversation" }, { content: "Tides" });
    // Each answer to the question is a new version, as a real model's would be.
    mock.onMessage(/tell me about tides/, () => ({
      content: `Version ${++versions} about tides.`,
    }));
    mock.onMessage(/.*/, { content: "Hello from the mock model." });
  });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

const openConversation = () => new URL(pageUrl()).searchParams.get("c");
let page: Page;
const pageUrl = () => page.url();
const answerText = () => page.getByTestId("message-assistant").first();
const position = () => page.getByTestId("version-position");

/** Waits until the open conversation is another one than `before` and shows `text`. */
async function opened(before: string | null, text: string): Promise<string> {
  await page.waitForURL((url) => ![null, before].includes(url.searchParams.get("c")), {
    timeout: TURN_TIMEOUT,
  });
  await answerText().getByText(text).waitFor({ timeout: TURN_TIMEOUT });
  return openConversation()!;
}

it("regenerates an answer twice and moves between its three versions", async () => {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  page = await context.newPage();
  const watch = watchPage(page, stack.url);
  await page.goto(`${stack.url}/#token=${stack.token}`);
  await page.getByRole("button", { name: "New conversation", exact: true }).click();
  await page
    .getByRole("form", { name: "New conversation" })
    .getByRole("button", { name: "Create" })
    .click();
  await page.waitForURL((url) => url.searchParams.get("c") !== null);
  const origin = openConversation();
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("tell me about tides");
  await box.press("Enter");
  await answerText().getByText("Version 1 about tides.").waitFor({ timeout: TURN_TIMEOUT });
  // One version so far: no switcher.
  expect(await position().count()).toBe(0);

  await answerText().getByRole("button", { name: "Regenerate", exact: true }).click();
  const second = await opened(origin, "Version 2 about tides.");
  await expect.poll(() => position().textContent(), { timeout: TURN_TIMEOUT }).toBe("2/2");
  // The question came along; the first answer stays in the origin.
  expect(await page.getByTestId("message-user").first().textContent()).toContain(
    "tell me about tides",
  );

  await answerText().getByRole("button", { name: "Regenerate", exact: true }).click();
  const third = await opened(second, "Version 3 about tides.");
  await expect.poll(() => position().textContent(), { timeout: TURN_TIMEOUT }).toBe("3/3");

  // Back through the versions, then forward again.
  await page.getByRole("button", { name: "Previous version" }).click();
  expect(await opened(third, "Version 2 about tides.")).toBe(second);
  await expect.poll(() => position().textContent(), { timeout: TURN_TIMEOUT }).toBe("2/3");
  await page.getByRole("button", { name: "Previous version" }).click();
  expect(await opened(second, "Version 1 about tides.")).toBe(origin);
  await expect.poll(() => position().textContent(), { timeout: TURN_TIMEOUT }).toBe("1/3");
  expect(await page.getByRole("button", { name: "Previous version" }).isDisabled()).toBe(true);
  await page.getByRole("button", { name: "Next version" }).click();
  expect(await opened(origin, "Version 2 about tides.")).toBe(second);

  // The branches are listed under the conversation they were made from.
  const list = page.getByRole("navigation", { name: "Conversations" });
  await expect.poll(() => list.locator("li.branch").count(), { timeout: TURN_TIMEOUT }).toBe(2);
  expect(watch.dialogs).toEqual([]);
  expect(watch.outside).toEqual([]);
  await context.close();
});
