// The installed app opens offline whole: every part of it loaded by `import()` (the conversation,
// the new-conversation form, never opened online) comes from the service worker's cache, even
// once the browser's HTTP cache has dropped it.
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { swPrecache } from "../../web/build/sw-precache";
import { launchChromium } from "./browser";
import { type Stack, startStack } from "./stack";

const dist = fileURLToPath(new URL("../../web/dist", import.meta.url));
const publicSw = fileURLToPath(new URL("../../web/public/sw.js", import.meta.url));

vi.setConfig({ testTimeout: 120_000, hookTimeout: 180_000 });

let stack: Stack;
let browser: Browser;
// The build the server serves: a copy, so a test can deploy another one over it.
const served = mkdtempSync(join(tmpdir(), "offline-shell-dist-"));
beforeAll(async () => {
  cpSync(dist, served, { recursive: true });
  stack = await startStack(
    (mock) => {
      mock.onMessage(/.*/, { content: "Noted." });
    },
    { assetsDir: served },
  );
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  rmSync(served, { recursive: true, force: true });
});

/** A new build of the page alone (as a change to index.html makes), built as `vite build` does. */
function deployNewPage(marker: string) {
  const page = join(served, "index.html");
  writeFileSync(
    page,
    readFileSync(page, "utf8").replace(
      "</head>",
      `<meta name="build" content="${marker}" /></head>`,
    ),
  );
  writeFileSync(join(served, "sw.js"), readFileSync(publicSw, "utf8"));
  const writeBundle = swPrecache().writeBundle as (
    options: { dir: string },
    bundle: Record<string, unknown>,
  ) => void;
  const names = readdirSync(join(served, "assets")).map((name) => `assets/${name}`);
  writeBundle({ dir: served }, Object.fromEntries(names.map((name) => [name, {}])));
}

async function conversation(title: string): Promise<string> {
  const res = await fetch(`${stack.url}/api/conversations`, {
    method: "POST",
    headers: { authorization: `Bearer ${stack.token}`, "content-type": "application/json" },
    body: JSON.stringify({ title, provider: "anthropic" }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

it("reloaded offline with the HTTP cache emptied, the conversation (its last messages), its Settings and the new-conversation form open", async () => {
  const id = await conversation("Field notes");
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(`${stack.url}/?c=${id}#token=${stack.token}`);
  const box = page.getByRole("textbox", { name: "Message" });
  await expect.poll(() => box.isEnabled(), { timeout: 30_000 }).toBe(true);
  await box.fill("Keep the tide tables");
  await box.press("Enter");
  const answer = page.getByTestId("message-assistant").filter({ hasText: "Noted." });
  await answer.waitFor({ timeout: 30_000 });
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));

  // The browser drops what it kept over HTTP (as it may any time): only the worker's cache is left.
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.clearBrowserCache");
  await cdp.detach();
  await context.setOffline(true);
  await page.reload();
  await page.getByTestId("offline-app").waitFor({ timeout: 15_000 });
  await expect.poll(() => box.isEnabled(), { timeout: 30_000 }).toBe(true);
  // The messages last seen there, with the conversation's offline banner.
  await answer.waitFor({ timeout: 15_000 });
  await page.getByTestId("offline").waitFor();
  await page.getByTestId("message-user").filter({ hasText: "Keep the tide tables" }).waitFor();
  // The list, its title and Settings come from what the browser last saw, Settings saying saves wait.
  const list = page.getByRole("navigation", { name: "Conversations" });
  await list.getByText("Field notes").first().waitFor({ timeout: 15_000 });
  expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Field notes");
  await page.getByRole("button", { name: "Settings" }).click();
  const settings = page.getByRole("dialog", { name: "Settings" });
  expect(await settings.getByTestId("settings-offline").textContent()).toContain(
    "You're offline: changes can be saved once you're back online.",
  );
  // One note for the sections only the server can fill, not an error each.
  await settings.getByTestId("settings-need-network").waitFor();
  expect(
    await settings
      .getByRole("alert")
      .filter({ hasText: /could not/i })
      .count(),
  ).toBe(0);
  await settings.getByRole("button", { name: "Close" }).click();

  await page.getByRole("button", { name: "New conversation" }).click();
  await page.getByRole("form", { name: "New conversation" }).waitFor({ timeout: 15_000 });
  expect(errors).toEqual([]);
  await context.close();
});

it("a page open across a deploy that removed a part's file says so with Reload when that part opens, and keeps the conversation", async () => {
  const id = await conversation("Across a deploy");
  // No worker here: a tab opened before the deploy, whose old files the server no longer has.
  const context = await browser.newContext({
    viewport: { width: 1400, height: 900 },
    serviceWorkers: "block",
  });
  await context.route(/\/assets\/SettingsPanel-[^/]+\.js$/, (route) =>
    route.fulfill({ status: 404, body: "Not found" }),
  );
  const page = await context.newPage();
  await page.goto(`${stack.url}/?c=${id}#token=${stack.token}`);
  const box = page.getByRole("textbox", { name: "Message" });
  await expect.poll(() => box.isEnabled(), { timeout: 30_000 }).toBe(true);
  await page.getByRole("button", { name: "Settings" }).click();
  const notice = page.getByRole("alert").filter({ hasText: "could not be loaded" });
  await notice.waitFor({ timeout: 15_000 });
  expect(await notice.textContent()).toContain("the app may have been updated");
  await notice.getByRole("button", { name: "Reload" }).waitFor();
  // The rest of the page is still there to read and write in.
  expect(await box.isEnabled()).toBe(true);
  await context.close();
});

it("after a deploy an open page says a new version is ready; its Reload keeps the draft and the unsent message, and offline after that the new build opens, the old one's cache gone", async () => {
  const id = await conversation("Deploys");
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${stack.url}/?c=${id}#token=${stack.token}`);
  const box = page.getByRole("textbox", { name: "Message" });
  await expect.poll(() => box.isEnabled(), { timeout: 30_000 }).toBe(true);
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  const before = await page.evaluate(() => caches.keys());
  expect(before).toHaveLength(1);
  const notice = page.getByTestId("update-ready");
  // Its own build's worker is no news.
  expect(await notice.count()).toBe(0);

  // Offline, a message waits in the outbox and another is being written.
  await context.setOffline(true);
  await box.fill("Written on the train");
  await box.press("Enter");
  await box.fill("Half a thought");

  deployNewPage("two");
  await stack.restart();
  // Back online the page looks for a new worker (it makes no navigation of its own).
  await context.setOffline(false);
  await notice.waitFor({ timeout: 30_000 });
  expect(await notice.textContent()).toBe("A new version is ready. Reload");
  await notice.getByRole("button", { name: "Reload" }).click();
  const marker = page.locator('meta[name="build"][content="two"]');
  await marker.waitFor({ state: "attached" });
  await expect.poll(() => box.isEnabled(), { timeout: 30_000 }).toBe(true);
  // Nothing lost: the draft is back in the box, the waiting message went (once).
  expect(await box.inputValue()).toBe("Half a thought");
  const sent = page.getByTestId("message-user").filter({ hasText: "Written on the train" });
  await expect.poll(() => sent.count(), { timeout: 30_000 }).toBe(1);
  // The new build's worker takes over and drops the old build's cache; the new page is that build.
  await expect
    .poll(() => page.evaluate(() => caches.keys()), { timeout: 30_000 })
    .toEqual([expect.not.stringMatching(before[0]!)]);
  expect(await notice.count()).toBe(0);

  await context.setOffline(true);
  await page.reload();
  await expect.poll(() => box.isEnabled(), { timeout: 30_000 }).toBe(true);
  expect(await marker.count()).toBe(1);
  await context.close();
});
