// A keyboard and mouse user's journey through the web client in Chromium against the real stack:
// the skip link, leaving Settings with a change not saved, the reasoning effort beside models
// that take it, and branches whose titles tell them apart.
import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { launchChromium, watchPage } from "./browser";
import { type Stack, startStack } from "./stack";

vi.setConfig({ testTimeout: 180_000, hookTimeout: 240_000 });
const TURN_TIMEOUT = 60_000;
const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 800 } };

let stack: Stack;
let browser: Browser;
beforeAll(async () => {
  stack = await startStack(
    (mock) => {
      mock.on({ systemMessage: "Name this conversation" }, { content: "Tides" });
      mock.onMessage(/a costly question/, {
        content: "A costly answer.",
        usage: { input_tokens: 1000, output_tokens: 200 },
      });
      mock.onMessage(/.*/, { content: "Hello from the mock model." });
      // Below the costly answer's tokens: after it, "frugal" is past the day's allowance.
    },
    { vars: { DAILY_TOKEN_ALLOWANCE: "500" }, moreUsers: ["frugal"] },
  );
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

async function create(body: Record<string, unknown>, token = stack.token): Promise<string> {
  const res = await fetch(`${stack.url}/api/conversations`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

async function open(id: string, options = DESKTOP, token = stack.token): Promise<Page> {
  const page = await (await browser.newContext(options)).newPage();
  await page.goto(`${stack.url}/?c=${id}#token=${token}`);
  await page.locator(".conversation-header h1").waitFor();
  return page;
}

const header = (page: Page) => page.locator(".conversation-header");
const settings = (page: Page) => page.getByRole("dialog", { name: "Settings" });
const focusedName = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement!;
    return el.getAttribute("aria-label") ?? el.textContent?.trim() ?? "";
  });

it("skips from the first Tab stop straight to the message box", async () => {
  const page = await open(await create({ title: "Skipping" }));
  await page.getByRole("textbox", { name: "Message" }).waitFor();
  await page.keyboard.press("Tab");
  expect(await focusedName(page)).toBe("Skip to the message box");
  // Shown while focused, inside the screen.
  const box = await page.getByRole("link", { name: "Skip to the message box" }).boundingBox();
  expect(box!.width).toBeGreaterThan(50);
  expect(box!.x).toBeGreaterThanOrEqual(0);
  await page.keyboard.press("Enter");
  expect(await focusedName(page)).toBe("Message");
  expect(new URL(page.url()).hash).toBe("");
  await page.context().close();
});

it("asks before the header's Settings button or another conversation drops a change", async () => {
  const other = await create({ title: "Another one" });
  const id = await create({ title: "Unsaved", provider: "anthropic", model: "claude-sonnet-4-6" });
  const page = await open(id, { viewport: { width: 1920, height: 1000 } });
  const watch = watchPage(page, stack.url);
  // Settings covers the right of the window: in a wide one beside a wide artifact pane the
  // header's Settings button stays in view, and a click on it is a way out.
  await page.evaluate(() => localStorage.setItem("thinking-chat:pane-width:artifacts", "900"));
  await page.reload();
  await header(page)
    .getByRole("button", { name: /^Artifacts/ })
    .click();
  await page.getByRole("complementary", { name: "Artifacts" }).waitFor();
  const settingsButton = header(page).getByRole("button", { name: "Settings" });
  await settingsButton.click();
  await settings(page).getByLabel("Reasoning").selectOption("high");
  const asking = page.getByRole("dialog", { name: "Close without saving?" });

  // The header's button asks; Cancel keeps Settings and the change.
  await settingsButton.click();
  await asking.waitFor();
  await asking.getByRole("button", { name: "Cancel" }).click();
  await expect.poll(() => asking.count()).toBe(0);
  expect(await settings(page).getByLabel("Reasoning").inputValue()).toBe("high");

  // Another conversation asks too; confirmed, it opens and Settings closes.
  await page.getByRole("button", { name: /^Another one/ }).click();
  await asking.waitFor();
  expect(new URL(page.url()).searchParams.get("c")).toBe(id);
  await asking.getByRole("button", { name: "Close without saving" }).click();
  await page.waitForURL((url) => url.searchParams.get("c") === other);
  await expect.poll(() => settings(page).count()).toBe(0);
  expect(watch.dialogs).toEqual([]);
  await page.context().close();
});

it("keeps the conversation readable beside a pane widened in a larger window; Escape closes it", async () => {
  const id = await create({ title: "Wide panes" });
  const context = await browser.newContext(DESKTOP);
  // Both panes at their widest, as dragged in a wide window, then a 1280 px one.
  await context.addInitScript(() => {
    localStorage.setItem("thinking-chat:pane-width:sidebar", "480");
    localStorage.setItem("thinking-chat:pane-width:artifacts", "900");
  });
  const page = await context.newPage();
  await page.goto(`${stack.url}/?c=${id}#token=${stack.token}`);
  await header(page).locator("h1").waitFor();
  await header(page)
    .getByRole("button", { name: /^Artifacts/ })
    .click();
  await page.locator("aside.artifact-pane").waitFor();
  const main = (await page.locator("main.main").boundingBox())!;
  expect(main.width).toBeGreaterThanOrEqual(399);
  // The header's buttons are inside the conversation's column, not under the pane.
  const settingsButton = (await header(page)
    .getByRole("button", { name: "Settings" })
    .boundingBox())!;
  expect(settingsButton.x + settingsButton.width).toBeLessThanOrEqual(main.x + main.width + 1);
  // Escape inside the pane closes it, and the focus goes back to the button that opens it.
  // (This conversation has no artifact to focus: the key is sent from the pane's heading.)
  await page
    .locator("aside.artifact-pane h2")
    .dispatchEvent("keydown", { key: "Escape", bubbles: true });
  await page.locator("aside.artifact-pane").waitFor({ state: "detached" });
  expect(await focusedName(page)).toMatch(/^Artifacts/);
  await context.close();
});

it("shows the reasoning effort beside a model that takes it, not beside gpt-4.1", async () => {
  const settingsWith = { reasoningEffort: "high" };
  const ignored = await open(
    await create({
      title: "Old model",
      provider: "openai",
      model: "gpt-4.1",
      settings: settingsWith,
    }),
  );
  expect(await header(ignored).textContent()).toContain("openai · gpt-4.1");
  expect(await header(ignored).textContent()).not.toContain("reasoning");
  await header(ignored).getByRole("button", { name: "Settings" }).click();
  await settings(ignored).getByLabel("Step limit").waitFor();
  expect(await settings(ignored).getByLabel("Reasoning").count()).toBe(0);
  await ignored.context().close();

  const taken = await open(
    await create({
      title: "New model",
      provider: "anthropic",
      model: "claude-sonnet-4-6",
      settings: settingsWith,
    }),
  );
  expect(await header(taken).textContent()).toContain("claude-sonnet-4-6 · high reasoning");
  await taken.context().close();
});

it("titles a branch apart from its origin, in the header and the list", async () => {
  const id = await create({ title: "Moon" });
  const page = await open(id);
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("tell me about the moon");
  await box.press("Enter");
  const answer = page.getByTestId("message-assistant").first();
  await answer.getByRole("button", { name: "Branch here" }).waitFor({ timeout: TURN_TIMEOUT });
  await answer.getByRole("button", { name: "Branch here" }).click();
  await page.waitForURL((url) => ![null, id].includes(url.searchParams.get("c")));
  await expect
    .poll(() => page.locator(".conversation-header h1").textContent())
    .toBe("Moon (branch 1)");
  const titles = page.getByRole("navigation", { name: "Conversations" }).locator(".title");
  await expect
    .poll(async () => (await titles.allTextContents()).filter((t) => t.includes("Moon")))
    .toEqual(["Moon", "↳ Branch: Moon (branch 1)"]);
  await page.context().close();
});

it("gives a refused message's text back in the message box, with the reason", async () => {
  const { token } = stack.users.find((u) => u.name === "frugal")!;
  const page = await open(await create({ title: "Frugal" }, token), DESKTOP, token);
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("a costly question");
  await box.press("Enter");
  await page
    .getByTestId("message-assistant")
    .and(page.locator('[data-status="complete"]'))
    .waitFor({ timeout: TURN_TIMEOUT });

  // The answer's usage is stored (the conversation's usage line shows it) ...
  await page.locator(".conversation-usage .usage-meter").waitFor({ timeout: TURN_TIMEOUT });
  // ... and puts the user past the day's allowance: the next message is refused, nothing typed
  // is lost.
  await box.fill("a second question, typed with care");
  await box.press("Enter");
  await page.locator(".composer-error").waitFor();
  expect(await page.locator(".composer-error").textContent()).toMatch(/allowance/i);
  await expect.poll(() => box.inputValue()).toBe("a second question, typed with care");
  expect(await page.getByTestId("message-user").count()).toBe(1);
  await page.context().close();
});

it("on a phone, moves focus into the artifact sheet and back to what opened it", async () => {
  const phone: BrowserContextOptions = {
    viewport: { width: 390, height: 844 },
    hasTouch: true,
    isMobile: true,
  };
  const page = await open(await create({ title: "Sheet" }), phone);
  const artifacts = header(page).getByRole("button", { name: /^Artifacts/ });
  await artifacts.focus();
  await page.keyboard.press("Enter");
  await page.getByRole("complementary", { name: "Artifacts" }).waitFor();
  // The sheet covers the chat: focus is on its way back, and Tab stays inside it.
  await expect.poll(() => focusedName(page)).toBe("← Back to the conversation");
  for (let i = 0; i < 12; i++) await page.keyboard.press("Tab");
  expect(await page.evaluate(() => !!document.activeElement?.closest(".sheet"))).toBe(true);
  await page.keyboard.press("Escape");
  await expect.poll(() => page.getByRole("complementary", { name: "Artifacts" }).count()).toBe(0);
  expect(await page.evaluate(() => document.activeElement?.textContent)).toMatch(/^Artifacts/);
  await page.context().close();
});
