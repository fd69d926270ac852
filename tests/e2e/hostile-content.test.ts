// Content an attacker controls, in Debian's chromium against `wrangler dev`: an answer full of
// raw HTML, script links, odd KaTeX and endless words, and an MCP server whose tool result holds
// an SVG with a script, HTML labelled PNG, links to javascript: and to the metadata address and
// an embedded HTML page. Nothing may run, leave our origin, navigate the page or break it.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { OVERRIDE_TITLE, startHostileMcpServer } from "../support/hostile-mcp-server";
import type { RunningMcpServer } from "../support/counting-mcp-server";
import { launchChromium, watchPage } from "./browser";
import { type Stack, startStack } from "./stack";

const TURN_TIMEOUT = 60_000;
const LONG_WORD = "Pneumonoultramicroscopic".repeat(400);

const ANSWER = [
  "Here is what I found.",
  "<script>alert('script tag')</script> <img src=x onerror=\"alert('img onerror')\">",
  "[tabbed](java\tscript:alert('tabbed')) [entity](&#106;avascript:alert('entity'))",
  "[reference][r] and <javascript:alert('autolink')> and [proto](//evil.example/x)",
  "[r]: javascript:alert('reference')",
  "[Open the report](/#token=tc_someone_else)",
  "![protocol relative](//evil.example/p.png) ![backslash](/\\evil.example/p.png)",
  "$$\\href{javascript:alert('katex href')}{click} \\url{https://evil.example}$$",
  "$$\\htmlClass{x}{y} \\includegraphics{https://evil.example/k.png}$$",
  "$$\\rule{100000em}{100000em} \\kern-100000em x$$",
  "$$\\def\\a{\\a\\a}\\a$$",
  // Typeset, this took seconds of the page's time at every delta.
  `$$${"x+".repeat(6_000)}x$$ and inline $${"y+".repeat(6_000)}y$`,
  '```"><img src=x onerror="alert(\'fence\')">\nconst x = 1;\n```',
  "```javascript:alert('fence language')\ncode\n```",
  LONG_WORD,
  `A ${"very long line ".repeat(500)}end.`,
].join("\n\n");

let stack: Stack;
let hostile: RunningMcpServer;
let browser: Browser;
beforeAll(async () => {
  hostile = await startHostileMcpServer();
  stack = await startStack((mock) => {
    mock.on({ toolResultContains: "Rendered." }, { content: ANSWER });
    mock.onMessage(/render something hostile/, {
      toolCalls: [{ id: "h1", name: "evil__render", arguments: "{}" }],
    });
    mock.onMessage(/.*/, { content: "Fine." });
  });
  const added = await rest("/api/mcp-servers", { name: "evil", url: hostile.url });
  expect(added.status).toBe(201);
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  await hostile?.stop();
});

function rest(path: string, body?: unknown, method = body === undefined ? "GET" : "POST") {
  return fetch(`${stack.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${stack.token}`, "content-type": "application/json" },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
}

async function signedIn(width = 1400) {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  const watch = watchPage(page, stack.url);
  await page.goto(`${stack.url}/#token=${stack.token}`);
  await page.getByRole("button", { name: "New conversation", exact: true }).waitFor();
  return { context, page, watch };
}

/** What a script of the page's content would leave behind, and links or images that go astray. */
function liveContent(page: Page) {
  return page.evaluate(() => ({
    scripts: document.querySelectorAll("main script, aside script").length,
    handlers: [...document.querySelectorAll("*")].flatMap((el) =>
      el.getAttributeNames().filter((n) => n.startsWith("on")),
    ),
    links: [...document.querySelectorAll("main a[href], aside a[href]")]
      .map((a) => a.getAttribute("href")!)
      .filter((h) => !/^(https:\/\/[a-z]|mailto:|\/(?![/\\])|#|\?)/.test(h) || /#.*token=/.test(h)),
    images: [...document.querySelectorAll("img")]
      .map((i) => i.getAttribute("src") ?? "")
      .filter((s) => !/^\/(?![/\\])/.test(s)),
    frames: document.querySelectorAll("iframe, object, embed").length,
    // The page itself never scrolls sideways: long words and wide formulas stay in their box.
    sideways: document.documentElement.scrollWidth > window.innerWidth + 1,
  }));
}

it("a hostile answer and tool result run nothing, leave no origin, and keep the page whole", async () => {
  const created = await rest("/api/conversations", { title: "hostile" });
  const { id } = (await created.json()) as { id: string };
  for (const width of [1400, 390]) {
    const { context, page, watch } = await signedIn(width);
    await page.goto(`${stack.url}/?c=${id}`);
    const box = page.getByRole("textbox", { name: "Message" });
    await box.waitFor();
    if (width === 1400) {
      await box.fill("render something hostile");
      await box.press("Enter");
    }
    const answer = page.getByTestId("message-assistant").first();
    await answer.and(page.locator('[data-status="complete"]')).waitFor({ timeout: TURN_TIMEOUT });
    expect(await answer.textContent()).toContain("Here is what I found.");
    // The tool call, opened: its raw result is text.
    const call = page.getByTestId("tool-call").first();
    await call.locator("summary").first().click();
    expect(await call.textContent()).toContain("Rendered. <img src=x onerror=");
    // Every artifact the tool left, opened in the pane.
    const buttons = answer.locator("button.artifact-button");
    const count = await buttons.count();
    expect(count).toBeGreaterThanOrEqual(5);
    for (let i = 0; i < count; i++) {
      await buttons.nth(i).click();
      await page.getByTestId("artifact-viewer").waitFor();
      await page.waitForTimeout(150);
      // Beside a narrow chat the pane covers it: closed, the next button can be reached.
      await page.keyboard.press("Escape");
    }
    await page.waitForTimeout(300);
    expect(await liveContent(page)).toEqual({
      scripts: 0,
      handlers: [],
      links: [],
      images: [],
      frames: 0,
      sideways: false,
    });
    expect(watch.dialogs).toEqual([]);
    expect(watch.outside).toEqual([]);
    expect(new URL(page.url()).searchParams.get("c")).toBe(id);
    // The composer is still there and usable below it all.
    expect(await box.isVisible()).toBe(true);
    await context.close();
  }
});

it("serves the tool's artifacts so that a browser opening them runs nothing", async () => {
  const created = await rest("/api/conversations", { title: "downloads" });
  const { id } = (await created.json()) as { id: string };
  const { context, page, watch } = await signedIn();
  await page.goto(`${stack.url}/?c=${id}`);
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("render something hostile");
  await box.press("Enter");
  await page
    .getByTestId("message-assistant")
    .and(page.locator('[data-status="complete"]'))
    .waitFor({ timeout: TURN_TIMEOUT });
  const listed = (await (await rest(`/api/conversations/${id}/artifacts`)).json()) as {
    items: Array<{ id: string; type: string; title: string; contentType: string | null }>;
  };
  const byType = (type: string) => listed.items.filter((a) => a.type === type);
  // The SVG stays an SVG artifact; the "PNG" that is HTML is plain bytes, not an image.
  expect(byType("image/svg+xml")).toHaveLength(1);
  expect(listed.items.filter((a) => a.contentType === "image/png")).toEqual([]);
  expect(byType("application/octet-stream")).toHaveLength(1);
  // The link's title lost its override: it reads as the server wrote it, in order.
  expect(listed.items.map((a) => a.title)).toContain("Link: Reporttxt.exe");
  expect(listed.items.map((a) => a.title).join("")).not.toContain(OVERRIDE_TITLE);
  for (const artifact of listed.items) {
    const url = `/api/artifacts/${artifact.id}/download`;
    const headers = await page.evaluate(async (u) => {
      const res = await fetch(u);
      await res.arrayBuffer();
      return Object.fromEntries(res.headers);
    }, url);
    expect(headers["x-content-type-options"]).toBe("nosniff");
    expect(headers["content-security-policy"]).toContain("sandbox");
    if (!/^image\/(png|jpeg|gif|webp)$/.test(headers["content-type"] ?? ""))
      expect(headers["content-disposition"]).toMatch(/^attachment;/);
    // Opened straight in a tab: a download, or bytes that cannot run.
    const tab = await context.newPage();
    const tabWatch = watchPage(tab, stack.url);
    await tab.goto(`${stack.url}${url}`).catch(() => undefined);
    await tab.waitForTimeout(200);
    expect(tabWatch.dialogs).toEqual([]);
    await tab.close();
  }
  expect(watch.dialogs).toEqual([]);
  await context.close();
});

it("a title renamed with a bidi override reads in order in the list, and leaves the rest alone", async () => {
  const created = await rest("/api/conversations", { title: "plain" });
  const { id } = (await created.json()) as { id: string };
  await rest(`/api/conversations/${id}`, { title: "Budget \u202E2026 fdp.exe" }, "PATCH");
  const { context, page } = await signedIn();
  await page.goto(`${stack.url}/?c=${id}`);
  const heading = page.locator(".conversation-header h1");
  await expect.poll(() => heading.textContent(), { timeout: 15_000 }).toContain("fdp.exe");
  // Read as a person does, left to right: "2026" comes before "fdp", not reversed after it.
  const order = await heading.evaluate((h) => {
    const text = h.firstChild!;
    const x = (from: number) => {
      const range = document.createRange();
      range.setStart(text, from);
      range.setEnd(text, from + 1);
      return range.getBoundingClientRect().x;
    };
    const s = text.textContent!;
    return { year: x(s.indexOf("2026")), ext: x(s.indexOf("exe")) };
  });
  expect(order.year).toBeLessThan(order.ext);
  expect(await heading.textContent()).toBe("Budget 2026 fdp.exe");
  await context.close();

  // A title of one endless word wraps in the list and the header, on a phone too.
  const word = "Unbreakable".repeat(18);
  await rest(`/api/conversations/${id}`, { title: word }, "PATCH");
  for (const width of [1400, 390]) {
    const { context: narrow, page: phone } = await signedIn(width);
    await phone.goto(`${stack.url}/?c=${id}`);
    await expect.poll(() => phone.locator(".conversation-header h1").textContent()).toBe(word);
    expect(
      await phone.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1),
    ).toBe(false);
    await narrow.close();
  }
});
