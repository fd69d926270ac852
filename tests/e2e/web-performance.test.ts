// What keeps the web client fast with a lot on screen, in Chromium against the real stack: a long
// conversation is all shown while only a window of its messages is in the page, a large knowledge
// graph is laid out in a Web Worker and drawn a slice at a time, the page paints before its
// script runs, and a returning visit draws the app before its session check answers. (How fast
// is for the bench, scripts/bench/web.mjs, not for tests.)
import type { Browser, BrowserContext, Page } from "playwright-core";
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

it("a conversation of 10,000 messages is all shown: it opens at its end, with only a window of it in the page, and scrolls to its middle and its start", async () => {
  const id = await newConversation({ title: "long" });
  const page = await signedInPage(
    replaySocketScript(`/api/conversations/${id}/ws`, conversationFrames(10_000)),
  );
  await page.goto(`${stack.url}/?c=${id}`);
  const list = page.getByTestId("messages");
  // A question and its answer (ids u<n> and a<n> in the replay) on screen, the answer finished.
  const turnShown = async (n: number) => {
    const question = list.locator(`[data-key="u${n}"]`);
    await expect.poll(() => question.isVisible(), { timeout: 20_000 }).toBe(true);
    // The question's own text (its message also holds actions such as Edit).
    await expect(question.locator("p.text").textContent()).resolves.toBe(
      `Question ${n}: tell me something.`,
    );
    const answer = list.locator(`[data-key="a${n}"] [data-testid="message-assistant"]`);
    await expect(answer.getAttribute("data-status")).resolves.toBe("complete");
    // Rendered as markdown: its renderer is a chunk of its own, loaded once some text needs it.
    await expect.poll(() => answer.textContent()).toContain("A short answer, in markdown");
  };
  await list.getByText("Question 4999: tell me something.").waitFor({ timeout: 60_000 });
  await turnShown(4_999);
  await expect(list.getAttribute("data-count")).resolves.toBe("10000");
  const inPage = () => list.locator("article").count();
  expect(await inPage()).toBeLessThan(100);

  await list.evaluate((el) => (el.scrollTop = el.scrollHeight / 2));
  // Halfway down: whichever questions the window holds there, they follow one another.
  const middle = await list.evaluate(async (el) => {
    const seen = () =>
      [...el.querySelectorAll('[data-testid="message-user"]')].map((a) =>
        Number(/Question (\d+):/.exec(a.textContent ?? "")?.[1]),
      );
    await new Promise(requestAnimationFrame);
    await new Promise(requestAnimationFrame);
    return seen();
  });
  expect(middle.length).toBeGreaterThan(0);
  // The questions in the window are consecutive: none is missing or out of order.
  expect(middle).toEqual(middle.map((_, i) => middle[0]! + i));
  await turnShown(middle[Math.floor(middle.length / 2)]!);

  await list.evaluate((el) => (el.scrollTop = 0));
  await turnShown(0);
  expect(await inPage()).toBeLessThan(100);
  await page.context().close();
});

it("paints its first words before any script has run, and checks the session once, with the page's first request", async () => {
  const noScript = await browser.newContext({ javaScriptEnabled: false });
  const bare = await noScript.newPage();
  await bare.goto(`${stack.url}/`);
  await expect(bare.locator("#root").textContent()).resolves.toBe("Loading…");
  await noScript.close();

  const page = await signedInPage();
  await page.reload();
  await page.getByRole("button", { name: "New conversation", exact: true }).waitFor();
  // A returning visit draws the list before its session check answers: the check's timing entry
  // is there once the page's requests have all finished.
  await page.waitForLoadState("networkidle");
  const sessionChecks = await page.evaluate(() =>
    performance
      .getEntriesByType("resource")
      .filter((e) => new URL(e.name).pathname === "/api/session")
      .map((e) => (e as PerformanceResourceTiming).initiatorType),
  );
  // Asked by first-requests.ts as the script starts; App's check takes that answer.
  expect(sessionChecks).toEqual(["fetch"]);
  await page.context().close();
});

it("a returning visit draws the app while its session check is on its way; a refused session is forgotten and asks to sign in", async () => {
  // Without the service worker, so every session check reaches the route below.
  const context = await browser.newContext({ serviceWorkers: "block" });
  const page = await context.newPage();
  await page.goto(`${stack.url}/#token=${stack.token}`);
  await page.getByRole("button", { name: "New conversation", exact: true }).waitFor();

  let held = await holdSessionChecks(context);
  await page.reload();
  await page.getByRole("button", { name: "New conversation", exact: true }).waitFor();
  expect(held.count()).toBeGreaterThan(0);
  held.release();
  await page.getByRole("button", { name: "New conversation", exact: true }).waitFor();

  // Signed out elsewhere (the cookie is gone): the check refuses, the app asks to sign in and
  // forgets the user, so the next visit shows the sign-in at once, asking nothing (a check could
  // only answer 401).
  await context.clearCookies();
  await page.reload();
  await page.getByRole("button", { name: "Sign in" }).waitFor();
  expect(await page.evaluate(() => localStorage.getItem("thinking-chat:last-user"))).toBeNull();
  held = await holdSessionChecks(context);
  await page.reload();
  await page.getByRole("button", { name: "Sign in" }).waitFor();
  expect(held.count()).toBe(0);
  held.release();
  await context.close();
});

/**
 * Holds every session check the context's pages make until `release` lets them all go on. The
 * route stays (it lets later checks straight through): removing it while a held request is
 * going on would hand that request on itself, and its own `continue` would then fail. A later
 * hold is registered after it, so Playwright asks that one first.
 */
async function holdSessionChecks(context: BrowserContext) {
  let release = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  let count = 0;
  await context.route("**/api/session", async (route) => {
    count += 1;
    await gate;
    await route.continue();
  });
  return { count: () => count, release };
}

it(`a ${BIG_GRAPH_NODES}-node knowledge graph is laid out off the page's thread, then drawn whole`, async () => {
  const id = await newConversation({ mode: "graph", provider: "anthropic" });
  const page = await signedInPage();
  await page.goto(`${stack.url}/?c=${id}`);
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill(BIG_GRAPH_ASK);
  await box.press("Enter");
  const button = page.locator('button.artifact-button[data-artifact-type$="knowledge-graph"]');
  await button.waitFor({ timeout: 60_000 });
  // The status may show for a fraction of a second: an observer notes it however briefly.
  await page.evaluate(() => {
    const w = window as unknown as { layingOut: string[] };
    w.layingOut = [];
    new MutationObserver(() => {
      const status = document.querySelector('[data-testid="graph-laying-out"]');
      if (status?.textContent) w.layingOut.push(status.textContent);
    }).observe(document.body, { childList: true, subtree: true, characterData: true });
  });
  await button.click();
  // The page keeps answering while the worker runs: it says what it is doing…
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { layingOut: string[] }).layingOut))
    .toContain(`Laying out ${BIG_GRAPH_NODES} nodes…`);
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
