// The web client in Debian's chromium against the real stack (`wrangler dev` with both workers,
// aimock as the model, our MCP worker with recorded outside APIs). Screenshots of the main views
// go to test-results/screenshots for people to look at.
import { mkdirSync } from "node:fs";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, type PageWatch, watchPage } from "./browser";
import {
  addResearchFixtures,
  CODE,
  PINNED_FOLLOW_UP,
  RESEARCH_QUESTION,
} from "./research-fixtures";
import { type Stack, startStack } from "./stack";
import { TITLE_INSTRUCTION } from "../../durable-objects/conversation/titles";

const SCREENSHOTS = "test-results/screenshots";
const STORY = Array.from({ length: 40 }, (_, i) => `Line ${i + 1} of the slow story.`).join(" ");
const TURN_TIMEOUT = 60_000;

let stack: Stack;
let browser: Browser;
beforeAll(async () => {
  stack = await startStack((mock) => {
    addResearchFixtures(mock);
    mock.onMessage(/slow story/, { content: STORY }, { chunkSize: 8, latency: 40 });
    mock.onMessage(/.*/, { content: "Hello from the mock model." });
  });
  browser = await launchChromium();
  mkdirSync(SCREENSHOTS, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

/** A signed-in browser context (the start link's token becomes a session cookie). */
async function signedIn(): Promise<{ context: BrowserContext; page: Page; watch: PageWatch }> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  const watch = watchPage(page, stack.url);
  await page.goto(`${stack.url}/#token=${stack.token}`);
  return { context, page, watch };
}

async function newConversation(page: Page, mode: "normal" | "graph" = "normal"): Promise<void> {
  await page.getByRole("button", { name: "New conversation", exact: true }).click();
  const form = page.getByRole("form", { name: "New conversation" });
  await form.getByLabel("Mode", { exact: true }).selectOption(mode);
  const before = new URL(page.url()).searchParams.get("c");
  await form.getByRole("button", { name: "Create" }).click();
  // The new conversation is open once the address names it.
  await page.waitForURL((url) => ![null, before].includes(url.searchParams.get("c")));
  await page.getByRole("textbox", { name: "Message" }).waitFor();
}

async function send(page: Page, text: string): Promise<void> {
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill(text);
  await box.press("Enter");
}

const answer = (page: Page, n: number) => page.getByTestId("message-assistant").nth(n);

async function finished(page: Page, n: number): Promise<void> {
  await answer(page, n)
    .and(page.locator('[data-status="complete"]'))
    .waitFor({ timeout: TURN_TIMEOUT });
}

it("streams an answer, and a page reloaded mid-reply ends with exactly what a page that stayed connected saw", async () => {
  const { context, page, watch } = await signedIn();
  await newConversation(page);
  await send(page, "hello");
  await expect
    .poll(() => answer(page, 0).textContent(), { timeout: 15_000 })
    .toContain("Hello from the mock model.");

  // A second tab on the same conversation stays connected throughout.
  const steady = await context.newPage();
  await steady.goto(page.url());
  await finished(steady, 0);

  await send(page, "tell me the slow story");
  await expect.poll(() => answer(page, 1).textContent(), { timeout: 15_000 }).toContain("Line 2");
  await page.screenshot({ path: `${SCREENSHOTS}/chat-streaming.png` });
  // The session cookie and the open conversation (in the address) survive the reload.
  await page.reload();
  await finished(page, 1);
  await finished(steady, 1);
  const reloaded = await answer(page, 1).textContent();
  expect(reloaded).toContain(STORY);
  expect(reloaded).toBe(await answer(steady, 1).textContent());
  await page.screenshot({ path: `${SCREENSHOTS}/chat-after-reload.png` });
  expect(watch.outside).toEqual([]);
  await context.close();
});

it("a new conversation opens at once: the socket its first message goes over creates it, with no request before", async () => {
  const { context, page } = await signedIn();
  const start = page.getByRole("button", { name: "New conversation", exact: true });
  await start.waitFor();
  const creates: string[] = [];
  page.on("request", (r) => {
    if (r.method() === "POST" && new URL(r.url()).pathname === "/api/conversations")
      creates.push(r.url());
  });
  const sockets: string[] = [];
  page.on("websocket", (ws) => sockets.push(ws.url()));
  await start.click();
  const form = page.getByRole("form", { name: "New conversation" });
  await form.getByLabel("Title").fill("Made by its socket");
  await form.getByRole("button", { name: "Create" }).click();
  await page.getByRole("heading", { name: "Made by its socket" }).waitFor();
  // Sent at once: it goes out as soon as that socket is open.
  await send(page, "hello");
  await expect
    .poll(() => answer(page, 0).textContent(), { timeout: 15_000 })
    .toContain("Hello from the mock model.");
  expect(creates).toEqual([]);
  const first = new URL(sockets[0] ?? "ws://none");
  expect(first.searchParams.get("new")).toBe("1");
  expect(first.searchParams.get("title")).toBe("Made by its socket");
  // It is a conversation like any other: a reload finds it, its title and its answer.
  await page.reload();
  await finished(page, 0);
  await page.getByRole("heading", { name: "Made by its socket" }).waitFor();
  await context.close();
});

it("loses the network mid-reply, says so, reconnects by itself and ends with the whole answer", async () => {
  const { context, page } = await signedIn();
  await newConversation(page);
  await send(page, "tell me the slow story again");
  await expect.poll(() => answer(page, 0).textContent(), { timeout: 15_000 }).toContain("Line 2");
  await context.setOffline(true);
  await page.getByTestId("offline").waitFor({ timeout: 15_000 });
  await page.screenshot({ path: `${SCREENSHOTS}/chat-offline.png` });
  await context.setOffline(false);
  await finished(page, 0);
  expect(await answer(page, 0).textContent()).toContain(STORY);
  expect(await page.getByTestId("offline").count()).toBe(0);
  await context.close();
});

it("cancels a turn and keeps what it had said", async () => {
  const { context, page } = await signedIn();
  await newConversation(page);
  await send(page, "one more slow story");
  await expect.poll(() => answer(page, 0).textContent(), { timeout: 15_000 }).toContain("Line 2");
  await page.getByRole("button", { name: "Cancel" }).click();
  await expect
    .poll(() => answer(page, 0).getAttribute("data-status"), { timeout: 15_000 })
    .toBe("cancelled");
  const kept = await answer(page, 0).textContent();
  expect(kept).toContain("Line 1 of the slow story.");
  expect(kept).not.toContain("Line 40 of the slow story.");
  expect(kept).toContain("You stopped this answer.");
  await context.close();
});

it("a start link that names a conversation opens it in a browser that is not signed in yet", async () => {
  const created = await fetch(`${stack.url}/api/conversations`, {
    method: "POST",
    headers: { authorization: `Bearer ${stack.token}`, "content-type": "application/json" },
    body: JSON.stringify({ title: "Shared by link" }),
  });
  expect(created.status).toBe(201);
  const { id } = (await created.json()) as { id: string };
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${stack.url}/?c=${id}#token=${stack.token}`);
  await expect
    .poll(() => page.locator(".conversation-header h1").textContent(), { timeout: 15_000 })
    .toBe("Shared by link");
  expect(new URL(page.url()).searchParams.get("c")).toBe(id);
  await context.close();
});

it("renames, finds by title and deletes conversations through our own dialogs", async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const watch = watchPage(page, stack.url);
  await page.goto(`${stack.url}/#token=${stack.token}`);
  await newConversation(page);
  await newConversation(page);
  const list = page.getByRole("navigation", { name: "Conversations" });
  await list
    .locator("li.active")
    .getByRole("button", { name: /^Rename / })
    .click();
  // Our own dialog, not the browser's prompt: it names the conversation and takes the new title.
  const renaming = page.getByRole("dialog", { name: /^Rename “New conversation”/ });
  await renaming.getByLabel("New title").fill("Olaparib trials");
  await renaming.getByRole("button", { name: "Rename" }).click();
  await expect.poll(() => renaming.count()).toBe(0);
  await list.getByText("Olaparib trials").waitFor();
  await expect
    .poll(() => page.locator(".conversation-header h1").textContent())
    .toBe("Olaparib trials");

  await list.getByRole("searchbox", { name: "Search conversations" }).fill("olaparib tri");
  await expect
    .poll(() => list.getByRole("button", { name: /^Rename / }).count(), { timeout: 10_000 })
    .toBe(1);
  await page.screenshot({ path: `${SCREENSHOTS}/conversations-search.png` });

  await list.getByRole("button", { name: "Delete Olaparib trials" }).click();
  const deleting = page.getByRole("dialog", { name: "Delete this conversation?" });
  await expect.poll(() => deleting.textContent()).toContain("“Olaparib trials” and all its");
  await page.screenshot({ path: `${SCREENSHOTS}/dialog-delete.png` });
  await deleting.getByRole("button", { name: "Delete conversation" }).click();
  await expect.poll(() => list.getByText("Olaparib trials").count()).toBe(0);
  await page.reload();
  await list.getByRole("searchbox", { name: "Search conversations" }).fill("olaparib tri");
  await page.waitForTimeout(500);
  expect(await list.getByText("Olaparib trials").count()).toBe(0);
  expect(watch.dialogs).toEqual([]);
  await context.close();
});

describe("a research conversation through our MCP worker", () => {
  let page: Page;
  let watch: PageWatch;
  beforeAll(async () => {
    ({ page, watch } = await signedIn());
    await newConversation(page);
    // Record what the page shows while the turn runs: the step indicator and running calls.
    await page.evaluate(() => {
      const seen = new Set<string>();
      (window as unknown as { seen: Set<string> }).seen = seen;
      new MutationObserver(() => {
        for (const el of document.querySelectorAll("[data-testid=step-indicator]"))
          seen.add(el.textContent ?? "");
        for (const el of document.querySelectorAll<HTMLElement>("[data-testid=tool-call]"))
          seen.add(`call ${el.dataset["status"]}`);
      }).observe(document.body, { subtree: true, childList: true, attributes: true });
    });
    await send(page, RESEARCH_QUESTION);
    await finished(page, 0);
  });

  const pane = () => page.getByRole("complementary", { name: "Artifacts" });
  const viewer = () => pane().getByTestId("artifact-viewer");
  async function open(type: string): Promise<void> {
    await answer(page, 0).locator(`button.artifact-button[data-artifact-type="${type}"]`).click();
    await expect.poll(() => viewer().getAttribute("data-artifact-type")).toBe(type);
  }

  it("shows the steps and the running tool calls live", async () => {
    const seen = await page.evaluate(() => [...(window as unknown as { seen: Set<string> }).seen]);
    expect(seen).toContain("Step 1 of 5");
    expect(seen).toContain("call started");
  });

  it("shows each step's tool calls with their results", async () => {
    const calls = answer(page, 0).getByTestId("tool-call");
    await expect.poll(() => calls.count()).toBe(3);
    const text = await answer(page, 0).textContent();
    for (const tool of ["pubmed_fetch", "pubtator_annotations", "render_chart"])
      expect(text).toContain(tool);
    for (const status of await calls.evaluateAll((els) => els.map((e) => e.dataset["status"])))
      expect(status).toBe("done");
    await expect
      .poll(() => answer(page, 0).getByRole("region", { name: "Tool calls of step 2" }).count())
      .toBe(1);
    // The formatted answer: markdown with the math typeset.
    await expect
      .poll(() => answer(page, 0).locator("strong", { hasText: "PARP inhibitor" }).count())
      .toBe(1);
    await expect.poll(() => answer(page, 0).locator(".katex").count()).toBeGreaterThan(0);
    await page.screenshot({ path: `${SCREENSHOTS}/research-timeline.png`, fullPage: true });
  });

  it("opens the code artifact highlighted", async () => {
    await open("application/vnd.ant.code");
    await expect.poll(() => viewer().locator("pre.code-block").textContent()).toContain(CODE);
    await expect.poll(() => viewer().locator("[class*=hljs-]").count()).toBeGreaterThan(0);
    await page.screenshot({ path: `${SCREENSHOTS}/artifact-code.png` });
  });

  it("opens the markdown artifact with its table", async () => {
    await open("text/markdown");
    await expect.poll(() => viewer().locator("table td", { hasText: "olaparib" }).count()).toBe(1);
    await page.screenshot({ path: `${SCREENSHOTS}/artifact-markdown.png` });
  });

  it("draws the knowledge graph's nodes", async () => {
    await open("application/vnd.knowledge-graph");
    await expect.poll(() => viewer().getByTestId("graph-node").count()).toBeGreaterThan(1);
    const box = await viewer().getByTestId("graph-node").first().boundingBox();
    expect(box && box.width > 0 && box.height > 0).toBe(true);
    await page.screenshot({ path: `${SCREENSHOTS}/artifact-graph.png` });
  });

  it("shows the chart image from our own origin", async () => {
    await open("image/png");
    const img = viewer().locator("img");
    await expect
      .poll(() => img.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth))
      .toBeGreaterThan(0);
    expect(await img.getAttribute("src")).toMatch(/^\/api\/artifacts\/[^/]+\/download/);
    await page.screenshot({ path: `${SCREENSHOTS}/artifact-image.png` });
  });

  it("shows the bibliography with PubMed and DOI links", async () => {
    await open("application/vnd.bibliography");
    const pubmed = await viewer()
      .getByRole("link", { name: "PubMed" })
      .evaluateAll((links) => links.map((a) => a.getAttribute("href")));
    expect(pubmed).toContain("https://pubmed.ncbi.nlm.nih.gov/29625052/");
    expect(await viewer().getByRole("link", { name: "DOI" }).first().getAttribute("href")).toMatch(
      /^https:\/\/doi\.org\/10\./,
    );
    await page.screenshot({ path: `${SCREENSHOTS}/artifact-bibliography.png` });
  });

  it("reads in dark mode", async () => {
    await page.emulateMedia({ colorScheme: "dark" });
    await open("application/vnd.knowledge-graph");
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const [r, g, b] = background.match(/\d+/g)!.map(Number);
    expect(r! + g! + b!).toBeLessThan(3 * 80);
    await page.screenshot({ path: `${SCREENSHOTS}/dark-graph.png` });
    await page.emulateMedia({ colorScheme: "light" });
  });

  it("sends a pinned artifact with the next message", async () => {
    await open("text/markdown");
    const pin = pane().getByRole("button", { name: /^Pin/ });
    await pin.click();
    await expect.poll(() => pin.getAttribute("aria-pressed")).toBe("true");
    await expect
      .poll(() => page.getByTestId("pinned-note").textContent())
      .toContain("Olaparib notes");
    await send(page, PINNED_FOLLOW_UP);
    await finished(page, 1);
    const last = stack.mock.getLastRequest();
    const sent = JSON.stringify(last?.body);
    expect(sent).toContain(PINNED_FOLLOW_UP);
    expect(sent).toContain("Pinned Context");
    expect(sent).toContain("Olaparib notes");
    expect(sent).toContain("| olaparib | PARP |");
    expect(watch.outside).toEqual([]);
    expect(watch.dialogs).toEqual([]);
  });
});

describe("hostile model output and tool results", () => {
  it("run nothing and reach no other origin, in the answer, the artifacts and the graph", async () => {
    const { page, watch } = await signedIn();
    await newConversation(page, "graph");
    await send(page, "hostile please");
    await finished(page, 0);
    const message = answer(page, 0);
    await message.hover();
    const hoverMe = message.getByText("hover me");
    if ((await hoverMe.count()) > 0) await hoverMe.first().hover();
    // Every artifact the turn left, opened in turn: markdown, code, the knowledge graph.
    const buttons = message.locator("button.artifact-button");
    const count = await buttons.count();
    expect(count).toBeGreaterThanOrEqual(3);
    for (let i = 0; i < count; i++) {
      await buttons.nth(i).click();
      await page.getByTestId("artifact-viewer").waitFor();
      await page.waitForTimeout(200);
      await page.screenshot({ path: `${SCREENSHOTS}/hostile-${i + 1}.png` });
    }
    const graph = page.getByTestId("graph-node");
    // Select each node: its properties (hostile too) show in the side panel.
    await graph.first().waitFor();
    for (const node of await graph.all()) {
      await node.click();
      await expect.poll(() => node.getAttribute("aria-pressed")).toBe("true");
    }

    const live = await page.evaluate(() => ({
      scripts: document.querySelectorAll("main script, aside script").length,
      handlers: [...document.querySelectorAll("*")].flatMap((el) =>
        el.getAttributeNames().filter((n) => n.startsWith("on")),
      ),
      badLinks: [...document.querySelectorAll("a[href]")]
        .map((a) => a.getAttribute("href")!)
        .filter((h) => /^\s*(javascript|data|vbscript):/i.test(h)),
      outsideImages: [...document.querySelectorAll("img")]
        .map((i) => i.getAttribute("src") ?? "")
        .filter((s) => !s.startsWith("/")),
      iframes: document.querySelectorAll("iframe, object, embed").length,
    }));
    expect(live).toEqual({ scripts: 0, handlers: [], badLinks: [], outsideImages: [], iframes: 0 });
    expect(watch.dialogs).toEqual([]);
    expect(watch.outside).toEqual([]);
    // What the links said is still shown, as text.
    expect(await message.textContent()).toContain("click me");
  });
});

it("settings switch the model, reasoning and step limit and choose our MCP worker's tools, and the next turn obeys them", async () => {
  const { page, watch } = await signedIn();
  await newConversation(page);
  await page.getByRole("button", { name: "Settings" }).click();
  const settings = page.getByRole("dialog", { name: "Settings" });
  await settings.getByRole("combobox", { name: "Model" }).fill("claude-sonnet-4-6");
  await settings.getByRole("combobox", { name: "Reasoning" }).selectOption("high");
  await settings.getByRole("spinbutton", { name: "Step limit" }).fill("2");
  await settings.getByRole("button", { name: "Save", exact: true }).click();
  await expect
    .poll(() => page.locator(".conversation-header").textContent())
    .toContain("claude-sonnet-4-6 · high reasoning");

  const ours = settings.getByRole("group", { name: "mcp-remote" });
  await ours.getByRole("button", { name: "Test" }).click();
  const chart = ours.getByRole("checkbox", { name: /render_chart/ });
  await chart.waitFor({ timeout: 15_000 });
  await chart.uncheck();
  await expect
    .poll(async () => {
      const id = new URL(page.url()).searchParams.get("c");
      return page.evaluate(
        async (url) => ((await (await fetch(url)).json()) as { settings: unknown }).settings,
        `/api/conversations/${id}`,
      );
    })
    .toMatchObject({
      maxSteps: 2,
      reasoningEffort: "high",
      enabledTools: { "mcp-remote": expect.any(Array) },
    });
  await page.screenshot({ path: `${SCREENSHOTS}/settings.png` });
  await page.keyboard.press("Escape");
  await settings.waitFor({ state: "detached" });

  await send(page, "which tools do you have");
  await finished(page, 0);
  // The last request of the answer itself (the cheap model's title request may come after it).
  const sent = stack.mock
    .getRequests()
    .map((r) => r.body as { model?: string; max_tokens?: number } | undefined)
    .filter((b) => !JSON.stringify(b).includes(TITLE_INSTRUCTION))
    .at(-1);
  expect(sent?.model).toBe("claude-sonnet-4-6");
  // Claude was asked to think at high effort: the answer's 4,096 tokens and the thinking's room.
  expect(sent?.max_tokens).toBe(4_096 + 16_384);
  expect(JSON.stringify(sent)).toContain("pubmed_search");
  expect(JSON.stringify(sent)).not.toContain("render_chart");
  expect(watch.outside).toEqual([]);
});

it("/ offers our MCP worker's literature_review prompt; its form fills the message box, and Send sends it as the user's message", async () => {
  const { context, page, watch } = await signedIn();
  await newConversation(page);
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("/lit");
  const picker = page.getByRole("listbox", { name: "Prompts of your MCP servers" });
  await expect
    .poll(() => picker.getByRole("option").allTextContents(), { timeout: 15_000 })
    .toEqual([expect.stringMatching(/^\/literature_reviewmcp-remoteA sourced review/)]);
  await box.press("Enter");
  const form = page.getByRole("form", { name: "Prompt literature_review" });
  await form.getByLabel("topic").fill("CRISPR base editing");
  await form.getByLabel("years").fill("2019-2024");
  await page.screenshot({ path: `${SCREENSHOTS}/prompt-form.png` });
  await form.getByRole("button", { name: "Use prompt" }).click();
  await expect
    .poll(() => box.inputValue())
    .toMatch(
      /^Write a literature review on: CRISPR base editing \(articles published from 2019 to 2024\)\./,
    );
  await box.press("Enter");
  await finished(page, 0);
  expect(await page.getByTestId("message-user").first().textContent()).toContain(
    "Write a literature review on: CRISPR base editing",
  );
  expect(watch.outside).toEqual([]);
  await context.close();
});
