// What keeps the web client fast with a lot on screen, in Chromium against the real stack: a long
// conversation keeps only a window of its messages in the page, and a large knowledge graph is
// laid out in a Web Worker. (How fast is for the bench, scripts/bench/web.mjs, not for tests.)
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { addBigGraphFixtures, BIG_GRAPH_ASK, BIG_GRAPH_NODES } from "./big-graph";
import { launchChromium } from "./browser";
import { conversationFrames, replaySocketScript } from "./replay-conversation";
import { type Stack, startStack } from "./stack";

let stack: Stack;
let browser: Browser;
beforeAll(async () => {
  stack = await startStack((mock) => addBigGraphFixtures(mock));
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

async function newConversation(body: Record<string, unknown>): Promise<string> {
  const res = await fetch(`${stack.url}/api/conversations`, {
    method: "POST",
    headers: { authorization: `Bearer ${stack.token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return ((await res.json()) as { id: string }).id;
}

async function signedInPage(init?: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  if (init) await context.addInitScript({ content: init });
  const page = await context.newPage();
  await page.goto(`${stack.url}/#token=${stack.token}`);
  await page.getByRole("button", { name: "New conversation", exact: true }).waitFor();
  return page;
}

it("a conversation of 2,000 messages opens at its end with only a window of them in the page, and scrolls to its start", async () => {
  const id = await newConversation({ title: "long" });
  const page = await signedInPage(
    replaySocketScript(`/api/conversations/${id}/ws`, conversationFrames(2_000)),
  );
  await page.goto(`${stack.url}/?c=${id}`);
  const list = page.getByTestId("messages");
  const last = list.getByText("Question 999: tell me something.");
  await last.waitFor({ timeout: 60_000 });
  await expect.poll(() => last.isVisible()).toBe(true);
  const inPage = () => list.locator("article").count();
  expect(await inPage()).toBeLessThan(100);

  await list.evaluate((el) => (el.scrollTop = 0));
  const first = list.getByText("Question 0: tell me something.");
  await expect.poll(() => first.isVisible(), { timeout: 10_000 }).toBe(true);
  expect(await inPage()).toBeLessThan(100);
  await page.context().close();
});

it(`a ${BIG_GRAPH_NODES}-node knowledge graph is laid out off the page's thread, then drawn whole`, async () => {
  const id = await newConversation({ mode: "graph", provider: "anthropic" });
  const page = await signedInPage();
  await page.goto(`${stack.url}/?c=${id}`);
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill(BIG_GRAPH_ASK);
  await box.press("Enter");
  const button = page.locator('button.artifact-button[data-artifact-type$="knowledge-graph"]');
  await button.waitFor({ timeout: 60_000 });
  await button.click();
  // The page keeps answering while the worker runs: it says what it is doing…
  await expect(page.getByTestId("graph-laying-out").textContent()).resolves.toBe(
    `Laying out ${BIG_GRAPH_NODES} nodes…`,
  );
  // …and then draws every node where the worker put it.
  await expect
    .poll(() => page.getByTestId("graph-node").count(), { timeout: 60_000 })
    .toBe(BIG_GRAPH_NODES);
  const placed = await page
    .getByTestId("graph-node")
    .evaluateAll((nodes) => new Set(nodes.map((n) => n.getAttribute("transform"))).size);
  expect(placed).toBeGreaterThan(BIG_GRAPH_NODES * 0.9);
  await page.context().close();
});
