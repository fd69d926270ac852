// Attaching files as a user does it, in Chromium against the real stack: what happens to files
// that cannot go (too large, refused with their message), and to files waiting in the composer
// when the message is refused or the user moves to another conversation.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, BrowserContextOptions, FileChooser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { launchChromium } from "./browser";
import { type Stack, startStack } from "./stack";

const TURN_TIMEOUT = 60_000;
const MAX_BYTES = 64 * 1024;
const DESKTOP: BrowserContextOptions = { viewport: { width: 1400, height: 900 } };

vi.setConfig({ testTimeout: 240_000, hookTimeout: 240_000 });

let stack: Stack;
let browser: Browser;
beforeAll(async () => {
  stack = await startStack(
    (mock) => {
      mock.onMessage(/a costly question/, {
        content: "A costly answer.",
        usage: { input_tokens: 1000, output_tokens: 200 },
      });
      mock.onMessage(/.*/, { content: "I read the files." });
    },
    {
      // After the costly answer, "frugal" is past the day's allowance.
      vars: { ATTACHMENT_MAX_BYTES: String(MAX_BYTES), DAILY_TOKEN_ALLOWANCE: "500" },
      moreUsers: ["frugal"],
    },
  );
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

async function create(token = stack.token, title = "Files"): Promise<string> {
  const res = await fetch(`${stack.url}/api/conversations`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ title, provider: "anthropic" }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

async function open(id: string, token = stack.token, options = DESKTOP): Promise<Page> {
  const page = await (await browser.newContext(options)).newPage();
  await page.goto(`${stack.url}/?c=${id}#token=${token}`);
  await page.getByRole("textbox", { name: "Message" }).waitFor();
  return page;
}

type PickedFile = { name: string; mimeType: string; buffer: Buffer };
const text = (name: string, body: string | Buffer): PickedFile => ({
  name,
  mimeType: "text/plain",
  buffer: Buffer.from(body),
});

async function pickFiles(page: Page, files: PickedFile[]) {
  const chooser = page.waitForEvent("filechooser");
  await page.getByRole("button", { name: "Attach files" }).click();
  await (await chooser).setFiles(files);
}

const chipList = (page: Page) => page.getByRole("list", { name: "Files for the next message" });
const chip = (page: Page, name: string) =>
  chipList(page).getByRole("listitem").filter({ hasText: name });
const chipNames = (page: Page) => chipList(page).locator(".attachment-chip-name").allTextContents();

/** Drags files over an element and drops them there, as from the desktop. */
async function dropOn(page: Page, selector: string, files: { name: string; text: string }[]) {
  await page.locator(selector).evaluate((target, dropped) => {
    const data = new DataTransfer();
    for (const f of dropped) data.items.add(new File([f.text], f.name, { type: "text/plain" }));
    for (const type of ["dragenter", "dragover", "drop"])
      target.dispatchEvent(
        new DragEvent(type, { dataTransfer: data, bubbles: true, cancelable: true }),
      );
  }, files);
}

async function attached(page: Page, ...names: string[]) {
  for (const name of names)
    await expect
      .poll(() => chip(page, name).textContent(), { timeout: 30_000 })
      .toContain("attached");
}

/** The titles of the conversation's stored files. */
async function storedFiles(page: Page, conversationId: string): Promise<string[]> {
  return page.evaluate(
    async (url) =>
      ((await (await fetch(url)).json()) as { items: { title: string }[] }).items.map(
        (i) => i.title,
      ),
    `/api/conversations/${conversationId}/artifacts`,
  );
}

it("a file far over the limit is refused at once, before its bytes are sent", async () => {
  const id = await create();
  const page = await open(id);
  const uploads: string[] = [];
  page.on("request", (r) => {
    if (r.method() === "POST" && r.url().endsWith("/attachments")) uploads.push(r.url());
  });
  await pickFiles(page, [text("scan.txt", Buffer.alloc(20 * 1024 * 1024, "x"))]);
  await expect
    .poll(() => chip(page, "scan.txt").getByRole("alert").textContent(), { timeout: 30_000 })
    .toBe(
      "This file (20 MiB) is larger than the 64 KiB an attachment may be. Attach a smaller file, or split it.",
    );
  // A file within the limit still uploads.
  await pickFiles(page, [text("notes.txt", "a few notes")]);
  await attached(page, "notes.txt");
  expect(uploads).toHaveLength(1);
  expect(await storedFiles(page, id)).toEqual(["notes.txt"]);
  await page.context().close();
});

it("a message refused for the allowance gives back its text and its files, ready to send again", async () => {
  const { token } = stack.users.find((u) => u.name === "frugal")!;
  const id = await create(token);
  const page = await open(id, token);
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("a costly question");
  await box.press("Enter");
  await page
    .getByTestId("message-assistant")
    .and(page.locator('[data-status="complete"]'))
    .waitFor({ timeout: TURN_TIMEOUT });
  await page.locator(".conversation-usage .usage-meter").waitFor({ timeout: TURN_TIMEOUT });

  await pickFiles(page, [text("minutes.txt", "minutes"), text("budget.csv", "a,b\n1,2\n")]);
  await attached(page, "minutes.txt", "budget.csv");
  await box.fill("Summarise these two files");
  await box.press("Enter");
  await page.locator(".composer-error").waitFor();
  expect(await page.locator(".composer-error").textContent()).toMatch(/allowance/i);
  await expect.poll(() => box.inputValue()).toBe("Summarise these two files");
  await expect.poll(() => chipNames(page)).toEqual(["minutes.txt", "budget.csv"]);
  await attached(page, "minutes.txt", "budget.csv");
  expect(await page.getByTestId("message-user").count()).toBe(1);
  await page.context().close();
});

it("files attached but not sent wait in their conversation while the user reads another", async () => {
  const first = await create(stack.token, "Report draft");
  await create(stack.token, "Elsewhere");
  const page = await open(first);
  await pickFiles(page, [text("chapter.md", "# Chapter one\n")]);
  await attached(page, "chapter.md");
  const list = page.getByRole("navigation", { name: "Conversations" });
  await list.getByText("Elsewhere", { exact: true }).click();
  await page.waitForURL((url) => url.searchParams.get("c") !== first);
  await page.getByRole("textbox", { name: "Message" }).waitFor();
  expect(await chipList(page).count()).toBe(0);

  await list.getByText("Report draft", { exact: true }).click();
  await page.waitForURL((url) => url.searchParams.get("c") === first);
  await expect.poll(() => chipNames(page)).toEqual(["chapter.md"]);
  await attached(page, "chapter.md");
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("Read the chapter");
  await box.press("Enter");
  await page
    .getByTestId("message-user")
    .getByTestId("message-attachment")
    .filter({ hasText: "chapter.md" })
    .waitFor({ timeout: TURN_TIMEOUT });
  expect(await storedFiles(page, first)).toEqual(["chapter.md"]);
  await page.context().close();
});

it("files dropped on the conversation are attached like those dropped on the message box, once each", async () => {
  const id = await create();
  const page = await open(id);
  await dropOn(page, '[data-testid="messages"]', [
    { name: "one.txt", text: "first" },
    { name: "two.txt", text: "second" },
  ]);
  await dropOn(page, ".composer-area", [{ name: "three.txt", text: "third" }]);
  await attached(page, "one.txt", "two.txt", "three.txt");
  expect(await chipNames(page)).toEqual(["one.txt", "two.txt", "three.txt"]);
  expect((await storedFiles(page, id)).sort()).toEqual(["one.txt", "three.txt", "two.txt"]);
  await page.context().close();
});

it("attaches and removes files with the keyboard alone; the same file twice goes once", async () => {
  const id = await create();
  const page = await open(id);
  const focused = () =>
    page.evaluate(() => {
      const el = document.activeElement!;
      return el.getAttribute("aria-label") ?? el.textContent?.trim() ?? "";
    });
  // Every file dialog the page opens, from the start: a key press can open one before a
  // listener added just then is in place.
  const choosers: FileChooser[] = [];
  page.on("filechooser", (c) => choosers.push(c));
  const nextChooser = async () => {
    await expect.poll(() => choosers.length).toBeGreaterThan(0);
    return choosers.shift()!;
  };
  // The box and Attach files open once the page knows the user's role (ChatView).
  const attach = page.getByRole("button", { name: "Attach files" });
  await expect.poll(() => attach.isEnabled()).toBe(true);
  await page.getByRole("textbox", { name: "Message" }).focus();
  await page.keyboard.press("Tab");
  expect(await focused()).toBe("Attach files");
  await page.keyboard.press("Enter");
  // Files on disk, as a user chooses them: the same one twice has the same name, size and date.
  const folder = mkdtempSync(join(tmpdir(), "attach-"));
  const files = ["first.txt", "second.txt"].map((name) => join(folder, name));
  files.forEach((path, i) => writeFileSync(path, `file ${i}`));
  await (await nextChooser()).setFiles(files);
  await attached(page, "first.txt", "second.txt");

  // The same file chosen again is left out, and says so.
  expect(await focused()).toBe("Attach files");
  await page.keyboard.press("Enter");
  await (await nextChooser()).setFiles([files[1]!]);
  await expect
    .poll(() => chip(page, "second.txt").nth(1).getByRole("alert").textContent())
    .toBe("second.txt is attached already; this copy is left out.");
  expect(await storedFiles(page, id)).toHaveLength(2);

  // Back from the message box to the chips' ×: each removal leaves the focus on the next one.
  await page.getByRole("textbox", { name: "Message" }).focus();
  await page.keyboard.press("Shift+Tab");
  expect(await focused()).toBe("Remove second.txt");
  await page.keyboard.press("Enter");
  expect(await focused()).toBe("Remove second.txt");
  await page.keyboard.press("Enter");
  expect(await focused()).toBe("Remove first.txt");
  await page.keyboard.press("Enter");
  expect(await focused()).toBe("Message");
  expect(await chipList(page).count()).toBe(0);
  await expect.poll(() => storedFiles(page, id)).toEqual([]);
  await page.context().close();
  rmSync(folder, { recursive: true });
});

it("a message with files sent while offline goes once, with its files, when the network is back", async () => {
  const id = await create();
  const page = await open(id);
  await pickFiles(page, [text("offline.txt", "written on a train")]);
  await attached(page, "offline.txt");
  await page.context().setOffline(true);
  await page.getByTestId("offline").waitFor();
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("Read this when you can");
  await box.press("Enter");
  // While offline the message is not lost from sight: it says it waits, with its file.
  const waiting = page.getByRole("list", { name: "Waiting to be sent" });
  await expect
    .poll(() => waiting.textContent())
    .toBe(
      "Waiting for the connection to send “Read this when you can” with 1 file: it goes as soon as the connection is back.",
    );
  await page.context().setOffline(false);
  await page
    .getByTestId("message-assistant")
    .and(page.locator('[data-status="complete"]'))
    .waitFor({ timeout: TURN_TIMEOUT });
  const sent = page.getByTestId("message-user");
  expect(await sent.count()).toBe(1);
  expect(await waiting.count()).toBe(0);
  expect(await sent.getByTestId("message-attachment").allTextContents()).toEqual([
    expect.stringContaining("offline.txt"),
  ]);
  // Reloaded, the conversation holds that one message, once.
  await page.reload();
  await page.getByTestId("message-assistant").waitFor();
  expect(await page.getByTestId("message-user").count()).toBe(1);
  await page.context().close();
});

it("on a phone, chips with long names stay on the screen and the files go with the message", async () => {
  const phone: BrowserContextOptions = {
    viewport: { width: 390, height: 844 },
    hasTouch: true,
    isMobile: true,
  };
  const page = await open(await create(), stack.token, phone);
  const long = "a-quarterly-report-with-a-name-far-longer-than-the-phone-is-wide.txt";
  await pickFiles(page, [text(long, "figures"), text("b.txt", "b")]);
  await attached(page, long, "b.txt");
  const width = await page.evaluate(() => document.documentElement.clientWidth);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(width);
  const remove = await chip(page, long)
    .getByRole("button", { name: `Remove ${long}` })
    .boundingBox();
  expect(remove!.x + remove!.width).toBeLessThanOrEqual(width);
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("Compare the two");
  await page.getByRole("button", { name: "Send" }).tap();
  await page
    .getByTestId("message-user")
    .getByTestId("message-attachment")
    .nth(1)
    .waitFor({ timeout: TURN_TIMEOUT });
  expect(await chipList(page).count()).toBe(0);
  await page.context().close();
});

it("a file copied in the file manager and pasted is attached, not pasted as its name", async () => {
  const page = await open(await create());
  const box = page.getByRole("textbox", { name: "Message" });
  await box.evaluate((el) => {
    const data = new DataTransfer();
    data.items.add(new File(["a,b\n1,2\n"], "figures.csv", { type: "text/csv" }));
    data.setData("text/plain", "figures.csv");
    el.dispatchEvent(
      new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }),
    );
  });
  await attached(page, "figures.csv");
  expect(await box.inputValue()).toBe("");
  await page.context().close();
});

it("a file name with quotes, accents and emoji is kept as the user named it", async () => {
  const id = await create();
  const page = await open(id);
  const name = 'Le "bilan" – été 🌞.md';
  await pickFiles(page, [text(name, "# Bilan")]);
  await attached(page, name);
  expect(await storedFiles(page, id)).toEqual([name]);
  await page.context().close();
});

it("a file deleted in the artifact pane before sending: the refused message's chip says which", async () => {
  const id = await create();
  const page = await open(id);
  await pickFiles(page, [text("keep.txt", "kept"), text("drop.txt", "dropped")]);
  await attached(page, "keep.txt", "drop.txt");
  await page.getByRole("button", { name: /^Artifacts/ }).click();
  const pane = page.getByRole("complementary", { name: "Artifacts" });
  await pane.locator(".artifact-item").filter({ hasText: "drop.txt" }).click();
  await pane.getByRole("button", { name: "Delete", exact: true }).click();
  await pane.getByRole("button", { name: "Yes, delete" }).click();
  await expect.poll(() => storedFiles(page, id)).toEqual(["keep.txt"]);

  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("Read both");
  await box.press("Enter");
  await page.locator(".composer-error").waitFor();
  expect(await page.locator(".composer-error").textContent()).toBe(
    "A file of this message was deleted before it went: its chip says which. Remove it, or attach it again, and send.",
  );
  await expect.poll(() => box.inputValue()).toBe("Read both");
  await expect
    .poll(() => chip(page, "drop.txt").getByRole("alert").textContent())
    .toBe("drop.txt was deleted before the message went: remove it, or attach it again.");
  await attached(page, "keep.txt");
  // Sent again, the message goes with the file that is still there.
  await box.press("Enter");
  await page
    .getByTestId("message-user")
    .getByTestId("message-attachment")
    .filter({ hasText: "keep.txt" })
    .waitFor({ timeout: TURN_TIMEOUT });
  expect(await page.getByTestId("message-user").getByTestId("message-attachment").count()).toBe(1);
  await page.context().close();
});
