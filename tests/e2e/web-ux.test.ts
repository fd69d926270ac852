// The web client on every screen and for every person (issue 20), in Chromium against the real
// stack: a keyboard-only research conversation; phone, tablet and desktop layouts (screenshots in
// test-results/screenshots, nothing scrolls sideways, the phone's drawer and artifact sheet);
// resizable desktop panes that remember their width; axe-core on the main screens, light and dark.
import { mkdirSync } from "node:fs";
import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { axeViolations } from "./axe";
import { launchChromium, watchPage } from "./browser";
import { addResearchFixtures, RESEARCH_QUESTION } from "./research-fixtures";
import { type Stack, startStack } from "./stack";

const SCREENSHOTS = "test-results/screenshots";
const TURN_TIMEOUT = 60_000;
const PHONE: BrowserContextOptions = {
  viewport: { width: 390, height: 844 },
  hasTouch: true,
  isMobile: true,
};
const TABLET: BrowserContextOptions = { viewport: { width: 820, height: 1180 }, hasTouch: true };
const DESKTOP: BrowserContextOptions = { viewport: { width: 1400, height: 900 } };

// Paragraphs that do not repeat one another (the API stops an answer that repeats itself).
const FILLER = [
  "Olaparib was the first PARP inhibitor approved for ovarian cancer.",
  "Trials since then have widened its use to breast and prostate tumours.",
  "Resistance often follows restored homologous recombination.",
  "Dose reductions were common because of anaemia and fatigue.",
  "A maintenance setting showed the longest progression-free survival.",
  "Combination with bevacizumab helped patients without BRCA mutations.",
  "Myelodysplastic syndrome remains a rare but serious risk.",
  "Tablets replaced the older capsule formulation in most markets.",
  "Germline testing decides eligibility in several guidelines.",
  "Quality of life scores stayed stable during maintenance treatment.",
  "Cost analyses differ sharply between health systems.",
  "Newer inhibitors trap PARP on DNA more strongly.",
];

/** An answer taller than the window, with what the layout once got wrong in it. */
const LONG_ANSWER_QUESTION = "a long answer please";
const LONG_ANSWER = [
  ...FILLER.slice(0, 6),
  // Formulas at every place in the line: one of them meets its end.
  `Inline maths on one line: ${["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"].map((w, i) => `${w} gives $E_${i} = m_${i}c^2$`).join(", ")}; footnoted[^1].`,
  [
    "| col a | col b | col c |",
    "| --- | --- | --- |",
    "| one | two | three |",
    `| ${"averyverylongcellwithoutspaces".repeat(3)} | x | y |`,
  ].join("\n"),
  "```python\nprint('hello')\n```",
  ...FILLER.slice(6),
  "[^1]: The footnote text.",
].join("\n\n");

// Chromium at three sizes and a whole research turn: slower than the suite's default on a busy
// machine.
vi.setConfig({ testTimeout: 300_000, hookTimeout: 400_000 });

let stack: Stack;
let browser: Browser;
/** The research conversation the keyboard test creates; the other tests open it. */
let researchUrl = "";

beforeAll(async () => {
  stack = await startStack((mock) => {
    addResearchFixtures(mock);
    mock.onMessage(new RegExp(LONG_ANSWER_QUESTION), { content: LONG_ANSWER });
    mock.onMessage(/.*/, { content: "Hello from the mock model." });
  });
  browser = await launchChromium();
  mkdirSync(SCREENSHOTS, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

async function signedIn(options: BrowserContextOptions, path = "/"): Promise<Page> {
  // bypassCSP only so that the test can inject axe-core; the app's own scripts are unchanged.
  const context = await browser.newContext({ ...options, bypassCSP: true });
  const page = await context.newPage();
  await page.goto(`${stack.url}${path}#token=${stack.token}`);
  return page;
}

const answer = (page: Page, n: number) => page.getByTestId("message-assistant").nth(n);

async function noSidewaysScroll(page: Page): Promise<void> {
  const widths = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect(widths.scroll).toBeLessThanOrEqual(widths.client);
  // Overflow to the left never shows as a scroll width: look for cut-off boxes themselves.
  const cutOff = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>("body *")]
      .filter((el) => {
        const box = el.getBoundingClientRect();
        // A closed drawer waits off screen on purpose; so do visually hidden texts.
        const hidden = el.closest(".drawer:not(.open), .visually-hidden, .sr-only, [hidden]");
        return box.width > 1 && box.height > 1 && box.left < -0.5 && !hidden;
      })
      .map(
        (el) =>
          `${el.tagName.toLowerCase()}.${el.className} at x=${el.getBoundingClientRect().left}`,
      ),
  );
  expect(cutOff).toEqual([]);
}

/** A new conversation (made through the API) with one long answer, open in a new page. */
async function longAnswerConversation(options: BrowserContextOptions): Promise<Page> {
  const created = await fetch(`${stack.url}/api/conversations`, {
    method: "POST",
    headers: { authorization: `Bearer ${stack.token}`, "content-type": "application/json" },
    body: JSON.stringify({ title: "A long answer" }),
  });
  const { id } = (await created.json()) as { id: string };
  const page = await signedIn(options, `/?c=${id}`);
  const message = page.getByRole("textbox", { name: "Message" });
  await message.fill(LONG_ANSWER_QUESTION);
  await message.press("Enter");
  await answer(page, 0)
    .and(page.locator('[data-status="complete"]'))
    .waitFor({ timeout: TURN_TIMEOUT });
  // The markdown renderer's code loads after the plain text shows.
  await answer(page, 0).locator(".katex").first().waitFor();
  return page;
}

/** How far the whole document has scrolled (the app scrolls its parts, never the page). */
const documentScroll = (page: Page) => page.evaluate(() => document.scrollingElement!.scrollTop);

/** Presses Tab until the focused element has this accessible name (keyboard only, no clicks). */
async function tabTo(page: Page, name: RegExp, max = 80): Promise<void> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press("Tab");
    const focused = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      // Only controls have names here; a focused scroll region's text would match anything.
      if (!el?.matches("a, button, input, select, textarea, summary, [role=separator]")) return "";
      const labelledBy = el.getAttribute("aria-labelledby");
      const label =
        el.getAttribute("aria-label") ??
        (labelledBy && document.getElementById(labelledBy)?.textContent) ??
        (el as HTMLInputElement).labels?.[0]?.textContent ??
        el.textContent ??
        "";
      return label.trim();
    });
    if (name.test(focused)) {
      // Visible focus: the focused control draws an outline.
      const outline = await page.evaluate(() => {
        const style = getComputedStyle(document.activeElement!);
        return style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0;
      });
      expect(outline, `focus on "${focused}" is visible`).toBe(true);
      return;
    }
  }
  throw new Error(`Tab never reached ${name}`);
}

it("runs a research conversation by keyboard alone, with visible focus", async () => {
  const page = await signedIn(DESKTOP);
  const watch = watchPage(page, stack.url);
  await page.getByRole("button", { name: "New conversation", exact: true }).waitFor();
  await tabTo(page, /^New conversation$/);
  await page.keyboard.press("Enter");
  await tabTo(page, /^Create$/);
  await page.keyboard.press("Enter");
  await page.waitForURL((url) => url.searchParams.get("c") !== null);
  await tabTo(page, /^Message$/);
  await page.keyboard.type(RESEARCH_QUESTION);
  await page.keyboard.press("Enter");
  await answer(page, 0)
    .and(page.locator('[data-status="complete"]'))
    .waitFor({ timeout: TURN_TIMEOUT });
  researchUrl = page.url().replace(stack.url, "");

  // Expand a step's tool call.
  await tabTo(page, /pubmed_fetch/);
  await page.keyboard.press("Enter");
  await expect.poll(() => page.locator(".tool-call details[open]").count()).toBe(1);

  // Open an artifact, then close the pane.
  await tabTo(page, /^Load the data$/);
  await page.keyboard.press("Enter");
  await page.getByRole("complementary", { name: "Artifacts" }).waitFor();
  await tabTo(page, /^Artifacts/);
  await page.keyboard.press("Enter");
  await expect.poll(() => page.getByRole("complementary", { name: "Artifacts" }).count()).toBe(0);

  // Settings open and close.
  await tabTo(page, /^Settings$/);
  await page.keyboard.press("Enter");
  await page.getByRole("dialog", { name: "Settings" }).waitFor();
  await page.keyboard.press("Escape");
  await expect.poll(() => page.getByRole("dialog", { name: "Settings" }).count()).toBe(0);

  // Rename with our dialog (focus starts in its text box), then delete another conversation. A
  // conversation is one Tab stop; Right arrow reaches its Rename.
  await tabTo(page, / · anthropic$/);
  await page.keyboard.press("ArrowRight");
  expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toMatch(
    /^Rename /,
  );
  await page.keyboard.press("Enter");
  await page.keyboard.type("Olaparib by keyboard");
  await page.keyboard.press("Enter");
  await expect
    .poll(() => page.locator(".conversation-header h1").textContent())
    .toBe("Olaparib by keyboard");

  // A second conversation to delete (made through the API: the list shows it within 5 s).
  const spare = await fetch(`${stack.url}/api/conversations`, {
    method: "POST",
    headers: { authorization: `Bearer ${stack.token}`, "content-type": "application/json" },
    body: JSON.stringify({ title: "Spare notes" }),
  });
  expect(spare.status).toBe(201);
  await page.getByRole("button", { name: "Delete Spare notes" }).waitFor({ timeout: 15_000 });
  await tabTo(page, /^Spare notes/);
  await page.keyboard.press("Delete");
  const deleting = page.getByRole("dialog", { name: "Delete this conversation?" });
  await deleting.waitFor();
  // Cancel is first, so a stray Enter never deletes: tab to the delete button on purpose.
  await tabTo(page, /^Delete conversation$/, 5);
  await page.keyboard.press("Enter");
  await expect.poll(() => page.getByRole("button", { name: "Delete Spare notes" }).count()).toBe(0);
  await expect.poll(() => page.getByText("Olaparib by keyboard").count()).toBeGreaterThan(0);
  expect(watch.dialogs).toEqual([]);
  await page.context().close();
});

it("scrolls only the messages, never the whole page: wheel, footnote link, scrollIntoView", async () => {
  const page = await longAnswerConversation({ viewport: { width: 1280, height: 800 } });
  const header = page.locator(".conversation-header");
  const messages = (await page.getByTestId("messages").boundingBox())!;
  await page.mouse.move(messages.x + messages.width / 2, messages.y + messages.height / 2);
  for (let i = 0; i < 5; i++) await page.mouse.wheel(0, 1000);
  await page.waitForTimeout(300);
  expect(await documentScroll(page)).toBe(0);
  expect((await header.boundingBox())!.y).toBe(0);

  await answer(page, 0).locator("a[data-footnote-ref]").click();
  await page.waitForTimeout(300);
  expect(await documentScroll(page)).toBe(0);
  expect((await header.boundingBox())!.y).toBe(0);

  await page.evaluate(() =>
    document.querySelector('[data-testid="message-assistant"] pre')!.scrollIntoView(),
  );
  expect(await documentScroll(page)).toBe(0);
  expect((await header.boundingBox())!.y).toBe(0);
  await page.context().close();
});

describe("a long answer on a phone", () => {
  let page: Page;
  beforeAll(async () => {
    page = await longAnswerConversation(PHONE);
  });
  afterAll(() => page.context().close());

  /** How many lines each of these rectangles' groups spreads over. */
  const linesOf = (groups: DOMRect[][]) =>
    groups.map((rects) => {
      const tops = rects.map((rect) => rect.top).sort((a, b) => a - b);
      // Boxes on one line differ in height (a superscript), not by a line's height.
      return tops.filter((top, i) => i === 0 || top - tops[i - 1]! > 12).length;
    });

  it("keeps inline formulas and table cells' words whole", async () => {
    // KaTeX may break a formula between its boxes (between "E =" and "mc²").
    const formulas = await answer(page, 0).evaluate((el) =>
      [...el.querySelectorAll(".katex-html")].map((html) =>
        [...html.querySelectorAll(":scope > .base")].map((base) => base.getBoundingClientRect()),
      ),
    );
    expect(formulas.length).toBeGreaterThan(5);
    expect(linesOf(formulas)).toEqual(formulas.map(() => 1));
    const cells = await answer(page, 0).evaluate((el) =>
      [...el.querySelectorAll("td")]
        .filter((td) => td.textContent!.length < 10)
        .map((td) => {
          const range = document.createRange();
          range.selectNodeContents(td);
          return [...range.getClientRects()];
        }),
    );
    expect(cells.length).toBe(5);
    expect(linesOf(cells)).toEqual(cells.map(() => 1));
    await noSidewaysScroll(page);
  });

  it("keeps the usage bar off the screen's edges", async () => {
    const bar = page.locator(".conversation-usage");
    const chat = (await page.locator(".chat").boundingBox())!;
    const first = (await bar.locator("> *").first().boundingBox())!;
    const last = (await bar.locator("> *").last().boundingBox())!;
    expect(first.x - chat.x).toBeGreaterThanOrEqual(8);
    expect(chat.x + chat.width - (last.x + last.width)).toBeGreaterThanOrEqual(8);
  });

  it("shows all of Settings, nothing cut off on the left", async () => {
    await page.getByRole("button", { name: "Settings" }).tap();
    const settings = page.getByRole("dialog", { name: "Settings" });
    await settings.waitFor();
    expect((await settings.boundingBox())!.x).toBeGreaterThanOrEqual(0);
    await noSidewaysScroll(page);
    await page.keyboard.press("Escape");
  });
});

// Each test leaves its page open 6.5 s for Chromium's late warnings: they run side by side, each
// in a browser context of its own, so the file waits 13 s for them rather than 26 s.
describe.concurrent("a normal load says nothing in the console", () => {
  /** The console's errors and warnings while the page loads and then stays open a while. */
  async function consoleOf(
    options: BrowserContextOptions,
    path: string,
    ready: (page: Page) => Promise<void>,
  ) {
    const context = await browser.newContext(options);
    const page = await context.newPage();
    const said: string[] = [];
    page.on("console", (m) => {
      if (m.type() === "error" || m.type() === "warning") said.push(`${m.type()}: ${m.text()}`);
    });
    page.on("pageerror", (e) => said.push(`pageerror: ${e.message}`));
    page.on("response", (r) => {
      if (r.status() >= 400) said.push(`${r.status()} ${r.request().method()} ${r.url()}`);
    });
    await page.goto(`${stack.url}${path}`);
    await ready(page);
    // Chromium warns of a preload left unused only after a few seconds.
    await page.waitForTimeout(6500);
    await context.close();
    return said;
  }
  const list = (page: Page) =>
    page.getByRole("button", { name: "New conversation", exact: true }).waitFor();

  it("signed out", async ({ expect }) => {
    const said = await consoleOf(DESKTOP, "/", (page) =>
      page.getByRole("button", { name: "Sign in" }).waitFor(),
    );
    expect(said).toEqual([]);
  });

  it("through a start link, then again signed in", async ({ expect }) => {
    const context = await browser.newContext(DESKTOP);
    const said: string[] = [];
    const page = await context.newPage();
    page.on("console", (m) => {
      if (m.type() === "error" || m.type() === "warning") said.push(`${m.type()}: ${m.text()}`);
    });
    page.on("response", (r) => {
      if (r.status() >= 400) said.push(`${r.status()} ${r.request().method()} ${r.url()}`);
    });
    await page.goto(`${stack.url}/#token=${stack.token}`);
    await list(page);
    await page.waitForTimeout(6500);
    expect(said).toEqual([]);
    await page.reload();
    await list(page);
    await page.waitForTimeout(6500);
    expect(said).toEqual([]);
    await context.close();
  });

  it("a conversation's start link on a phone", async ({ expect }) => {
    const created = await fetch(`${stack.url}/api/conversations`, {
      method: "POST",
      headers: { authorization: `Bearer ${stack.token}`, "content-type": "application/json" },
      body: JSON.stringify({ title: "Opened by a start link" }),
    });
    const { id } = (await created.json()) as { id: string };
    const said = await consoleOf(PHONE, `/?c=${id}#token=${stack.token}`, (page) =>
      page.getByRole("textbox", { name: "Message" }).waitFor(),
    );
    expect(said).toEqual([]);
  });
});

describe("on a phone (390 × 844, touch)", () => {
  let page: Page;
  beforeAll(async () => {
    page = await signedIn(PHONE, researchUrl);
    await answer(page, 0)
      .and(page.locator('[data-status="complete"]'))
      .waitFor({ timeout: TURN_TIMEOUT });
  });
  afterAll(() => page.context().close());

  it("shows the conversation full width with the composer at the bottom, nothing sideways", async () => {
    const messages = await page.getByTestId("messages").boundingBox();
    expect(messages!.width).toBeGreaterThan(360);
    const composer = await page.getByRole("textbox", { name: "Message" }).boundingBox();
    expect(composer!.y + composer!.height).toBeGreaterThan(844 - 120);
    await noSidewaysScroll(page);
    await page.screenshot({ path: `${SCREENSHOTS}/phone-chat.png` });
  });

  it("opens the conversation list as a drawer, closed by Escape or a tap beside it", async () => {
    const list = page.getByRole("navigation", { name: "Conversations" });
    const listLeft = async () => (await list.boundingBox())?.x ?? -1000;
    expect(await listLeft()).toBeLessThan(0);
    await page.getByRole("button", { name: "Conversations" }).tap();
    await expect.poll(listLeft).toBe(0);
    await page.screenshot({ path: `${SCREENSHOTS}/phone-drawer.png` });
    await noSidewaysScroll(page);
    await page.keyboard.press("Escape");
    await expect.poll(listLeft).toBeLessThan(0);
    await page.getByRole("button", { name: "Conversations" }).tap();
    await expect.poll(listLeft).toBe(0);
    await page.mouse.click(380, 400);
    await expect.poll(listLeft).toBeLessThan(0);
  });

  it("opens an artifact as a full-screen sheet with a way back", async () => {
    await answer(page, 0).getByRole("button", { name: "Load the data" }).tap();
    const pane = page.getByRole("complementary", { name: "Artifacts" });
    await pane.getByTestId("artifact-viewer").waitFor();
    const box = await pane.boundingBox();
    expect(box!.width).toBeGreaterThan(380);
    await noSidewaysScroll(page);
    await page.screenshot({ path: `${SCREENSHOTS}/phone-artifact-sheet.png` });
    await page.getByRole("button", { name: "← Back to the conversation" }).tap();
    await expect.poll(() => pane.count()).toBe(0);
  });

  it("shows Settings full width", async () => {
    await page.getByRole("button", { name: "Settings" }).tap();
    await page.getByRole("dialog", { name: "Settings" }).waitFor();
    await noSidewaysScroll(page);
    await page.screenshot({ path: `${SCREENSHOTS}/phone-settings.png` });
    await page.keyboard.press("Escape");
  });
});

it("keeps the list and the conversation side by side on a tablet", async () => {
  const page = await signedIn(TABLET, researchUrl);
  await answer(page, 0).waitFor();
  const list = await page.getByRole("navigation", { name: "Conversations" }).boundingBox();
  const chat = await page.getByTestId("messages").boundingBox();
  expect(list!.x).toBe(0);
  expect(chat!.x).toBeGreaterThanOrEqual(list!.width);
  await noSidewaysScroll(page);
  await page.screenshot({ path: `${SCREENSHOTS}/tablet-chat.png` });
  await answer(page, 0).getByRole("button", { name: "Load the data" }).click();
  await page.getByTestId("artifact-viewer").waitFor();
  await noSidewaysScroll(page);
  await page.screenshot({ path: `${SCREENSHOTS}/tablet-artifact.png` });
  await page.context().close();
});

it("lets a desktop user resize the panes and remembers the widths", async () => {
  const page = await signedIn(DESKTOP, researchUrl);
  await answer(page, 0).waitFor();
  const list = page.getByRole("navigation", { name: "Conversations" });
  const width = async () => Math.round((await list.boundingBox())!.width);
  const before = await width();
  await page.getByRole("separator", { name: "Resize the conversation list" }).focus();
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  await expect.poll(width).toBe(before + 48);
  const handle = (await page
    .getByRole("separator", { name: "Resize the conversation list" })
    .boundingBox())!;
  await page.mouse.move(handle.x + 3, handle.y + 200);
  await page.mouse.down();
  await page.mouse.move(handle.x + 53, handle.y + 200, { steps: 5 });
  await page.mouse.up();
  await expect.poll(width).toBe(before + 98);
  await page.reload();
  await answer(page, 0).waitFor();
  await expect.poll(width).toBe(before + 98);
  await noSidewaysScroll(page);
  await page.screenshot({ path: `${SCREENSHOTS}/desktop-resized.png` });
  await page.context().close();
});

describe("axe-core finds no serious or critical violation", () => {
  for (const scheme of ["light", "dark"] as const) {
    it(`on sign-in, chat, artifact pane and settings (${scheme})`, async () => {
      const context = await browser.newContext({
        ...DESKTOP,
        bypassCSP: true,
        colorScheme: scheme,
      });
      const signIn = await context.newPage();
      await signIn.goto(`${stack.url}/`);
      await signIn.getByRole("button", { name: /sign in/i }).waitFor();
      const found = await axeViolations(signIn, scheme);
      await signIn.screenshot({ path: `${SCREENSHOTS}/sign-in-${scheme}.png` });
      await context.close();

      const page = await signedIn({ ...DESKTOP, colorScheme: scheme }, researchUrl);
      await answer(page, 0)
        .and(page.locator('[data-status="complete"]'))
        .waitFor({ timeout: TURN_TIMEOUT });
      found.push(...(await axeViolations(page, scheme)));
      await page.screenshot({ path: `${SCREENSHOTS}/chat-${scheme}.png` });
      await answer(page, 0).getByRole("button", { name: "Load the data" }).click();
      await page.getByTestId("artifact-viewer").waitFor();
      found.push(...(await axeViolations(page, scheme)));
      await page.screenshot({ path: `${SCREENSHOTS}/artifact-${scheme}.png` });
      await page.getByRole("button", { name: "Settings" }).click();
      await page.getByRole("dialog", { name: "Settings" }).waitFor();
      await page.getByRole("heading", { name: "MCP servers" }).waitFor();
      found.push(...(await axeViolations(page, scheme)));
      await page.screenshot({ path: `${SCREENSHOTS}/settings-${scheme}.png` });
      await page.context().close();
      expect(found).toEqual([]);
    });
  }
});

it("installs: a manifest with icons, and a service worker that opens the app offline without caching API answers", async () => {
  const page = await signedIn(DESKTOP, researchUrl);
  await answer(page, 0).waitFor();
  const manifest = (await (await fetch(`${stack.url}/manifest.webmanifest`)).json()) as {
    name: string;
    display: string;
    icons: { src: string }[];
  };
  expect(manifest).toMatchObject({ name: "Thinking Chat", display: "standalone" });
  for (const icon of manifest.icons)
    expect((await fetch(`${stack.url}${icon.src}`)).status).toBe(200);
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  // A second load runs under the worker, which fills the cache with the shell's assets.
  await page.reload();
  await answer(page, 0).waitFor();

  await page.context().setOffline(true);
  await page.reload();
  await page.getByTestId("offline-app").waitFor({ timeout: 15_000 });
  await page.screenshot({ path: `${SCREENSHOTS}/offline-start.png` });
  const cached = await page.evaluate(async () => {
    const urls: string[] = [];
    for (const key of await caches.keys())
      for (const request of await (await caches.open(key)).keys()) urls.push(request.url);
    return urls;
  });
  expect(cached.some((u) => new URL(u).pathname.startsWith("/assets/"))).toBe(true);
  expect(cached.filter((u) => new URL(u).pathname.startsWith("/api/"))).toEqual([]);
  await page.context().setOffline(false);
  await page.context().close();
});

it("opens without waiting for the service worker: the shell's scripts come from its cache by a static route, API requests straight from the network", async () => {
  const page = await signedIn(DESKTOP);
  const newConversation = page.getByRole("button", { name: "New conversation" });
  await newConversation.waitFor();
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await page.reload();
  await newConversation.waitFor();
  // The list may still be on its way when its button shows: its timing entry comes on arrival.
  await page.waitForFunction(() =>
    performance
      .getEntriesByType("resource")
      .some((e) => new URL(e.name).pathname === "/api/conversations"),
  );
  // Resource timing names where a controlled page's request was answered from.
  const { scriptPath, ...sources } = await page.evaluate(() => {
    const script = document.querySelector<HTMLScriptElement>("script[type=module]")!.src;
    const sourceOf = (match: (url: string) => boolean) => {
      const entry = performance
        .getEntriesByType("resource")
        .find((e) => match(e.name)) as PerformanceResourceTiming & {
        workerMatchedSourceType?: string;
        workerFinalSourceType?: string;
      };
      return { matched: entry?.workerMatchedSourceType, final: entry?.workerFinalSourceType };
    };
    return {
      scriptPath: new URL(script).pathname,
      script: sourceOf((url) => url === script),
      session: sourceOf((url) => new URL(url).pathname === "/api/session"),
      list: sourceOf((url) => new URL(url).pathname === "/api/conversations"),
    };
  });
  expect(sources).toEqual({
    script: { matched: "cache", final: "cache" },
    session: { matched: "network", final: "network" },
    list: { matched: "network", final: "network" },
  });
  // A build's file names carry their content's hash: a browser keeps them without asking again.
  const asset = await fetch(`${stack.url}${scriptPath}`);
  expect(asset.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
  await page.context().close();
});

it("keeps who is signed in and Sign out in view below a long conversation list", async () => {
  for (let i = 0; i < 30; i++) {
    const made = await fetch(`${stack.url}/api/conversations`, {
      method: "POST",
      headers: { authorization: `Bearer ${stack.token}`, "content-type": "application/json" },
      body: JSON.stringify({ title: `Filler conversation ${i + 1}` }),
    });
    expect(made.status).toBe(201);
  }
  const page = await signedIn({ viewport: { width: 1280, height: 600 } });
  await page.getByText("Filler conversation 30").waitFor();
  const signOut = page.getByRole("button", { name: "Sign out" });
  const inView = async () => {
    const box = (await signOut.boundingBox())!;
    return box.y >= 0 && box.y + box.height <= 600;
  };
  expect(await inView()).toBe(true);
  await page
    .getByRole("navigation", { name: "Conversations" })
    .evaluate((nav) => nav.scrollTo(0, nav.scrollHeight / 2));
  expect(await inView()).toBe(true);
  await page.screenshot({ path: `${SCREENSHOTS}/long-list.png` });
  await page.context().close();
});

it("keeps the header's title and model readable beside the artifact pane", async () => {
  const page = await longAnswerConversation({ viewport: { width: 1280, height: 800 } });
  await page.getByRole("button", { name: /^Artifacts/ }).click();
  await page.getByRole("complementary", { name: "Artifacts" }).waitFor();
  const header = await page.locator(".conversation-header").evaluate((el) => {
    const title = el.querySelector("h1")!;
    /** How many lines the text in this element takes. */
    const lines = (e: Element) => {
      const tops = new Set<number>();
      const texts = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
      while (texts.nextNode()) {
        const range = document.createRange();
        range.selectNodeContents(texts.currentNode);
        for (const r of range.getClientRects()) tops.add(Math.round(r.top));
      }
      return tops.size;
    };
    return {
      titleCut: title.scrollWidth > title.clientWidth,
      // Each of the header's parts stays on one line.
      wrapped: [...el.children].filter((c) => lines(c) > 1).map((c) => c.textContent),
    };
  });
  expect(header).toEqual({ titleCut: false, wrapped: [] });
  await page.screenshot({ path: `${SCREENSHOTS}/header-beside-pane.png` });
  await page.context().close();
});
