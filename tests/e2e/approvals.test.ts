// Tool approvals as a user meets them, in Debian's chromium against `wrangler dev`: a tool the
// user's own MCP server marks destructive waits for an answer that may come from another device,
// after the first tab closed, after a restart of the service, or never (expiry denies).
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { TITLE_INSTRUCTION } from "../../durable-objects/conversation/titles";
import { startApprovalServer } from "../support/approval-server";
import { launchChromium } from "./browser";
import { type Stack, startStack } from "./stack";

/** The deployment's approval lifetime in this stack; conversations that must not expire set their own. */
const TTL_SECONDS = 6;
const TURN_TIMEOUT = 60_000;

/** "delete note <name>" makes the model call notes__delete_note for that note. */
const NOTES = ["approved", "declined", "restarted", "expired", "allowed"] as const;

let stack: Stack;
let notes: Awaited<ReturnType<typeof startApprovalServer>>;
let browser: Browser;
beforeAll(async () => {
  notes = await startApprovalServer();
  stack = await startStack(
    (mock) => {
      // Tool results first: the last user message still matches its question on the second call.
      for (const name of NOTES)
        mock.on(
          { toolResultContains: `Deleted note ${name}` },
          { content: `Note ${name} is gone.` },
        );
      mock.on(
        { toolResultContains: "the user declined" },
        { content: "Understood, I left the note alone." },
      );
      mock.on(
        { toolResultContains: "nobody answered the approval request" },
        { content: "Nobody approved, so I left the note alone." },
      );
      for (const name of NOTES)
        mock.onMessage(new RegExp(`delete note ${name}`), {
          toolCalls: [
            { id: `d-${name}`, name: "notes__delete_note", arguments: JSON.stringify({ name }) },
          ],
        });
    },
    { vars: { APPROVAL_TTL_SECONDS: String(TTL_SECONDS) } },
  );
  const added = await rest("/api/mcp-servers", { name: "notes", url: notes.url });
  expect(added.status).toBe(201);
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  await notes?.stop();
});

function rest(path: string, body?: unknown): Promise<Response> {
  return fetch(`${stack.url}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { authorization: `Bearer ${stack.token}`, "content-type": "application/json" },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
}

/** A conversation whose approvals wait an hour (or the deployment's lifetime when `expiring`). */
async function conversation(expiring = false): Promise<string> {
  const settings = expiring ? {} : { approvalTimeoutSeconds: 3600 };
  const res = await rest("/api/conversations", { title: "approvals", settings });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

/** How often the notes server really deleted each note. */
async function deletions(name: string): Promise<number> {
  const runs = (await (await fetch(new URL("/runs", notes.url))).json()) as Record<string, number>;
  return runs[`delete_note:${name}`] ?? 0;
}

/** A new browser context (a "device") signed in with the same token, showing the conversation. */
async function device(conversationId: string) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  // Sign in first (the start link's token becomes a session cookie), then open the conversation.
  await page.goto(`${stack.url}/#token=${stack.token}`);
  await page.getByRole("button", { name: "New conversation", exact: true }).waitFor();
  await page.goto(`${stack.url}/?c=${conversationId}`);
  await page.getByRole("textbox", { name: "Message" }).waitFor();
  return { context, page };
}

async function ask(page: Page, text: string): Promise<void> {
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill(text);
  await box.press("Enter");
}

const card = (page: Page) => page.getByRole("region", { name: "Approval for delete_note" });
const answer = (page: Page) => page.getByTestId("message-assistant").first();

async function finishedAnswer(page: Page): Promise<string> {
  await answer(page)
    .and(page.locator('[data-status="complete"]'))
    .waitFor({ timeout: TURN_TIMEOUT });
  return (await answer(page).textContent()) ?? "";
}

/** Asks to delete the note on a first device and waits for the approval card there. */
async function parkOnFirstDevice(conversationId: string, name: string) {
  const first = await device(conversationId);
  await ask(first.page, `delete note ${name}`);
  await card(first.page).getByRole("button", { name: "Approve" }).waitFor({
    timeout: TURN_TIMEOUT,
  });
  expect(await card(first.page).textContent()).toContain(name);
  return first;
}

it("a destructive call waits; another device approves after the first tab closed, and the tool runs once", async () => {
  const id = await conversation();
  const first = await parkOnFirstDevice(id, "approved");
  expect(await deletions("approved")).toBe(0);
  await first.context.close();

  const second = await device(id);
  const pending = card(second.page);
  await pending.getByRole("button", { name: "Approve" }).click();
  expect(await finishedAnswer(second.page)).toContain("Note approved is gone.");
  await expect.poll(() => pending.textContent()).toMatch(/Approved by you \(app/);
  expect(await deletions("approved")).toBe(1);
  await second.context.close();
});

it("deny with a note: the tool does not run and the model is told the user declined", async () => {
  const id = await conversation();
  const { context, page } = await parkOnFirstDevice(id, "declined");
  const pending = card(page);
  await pending.getByLabel("Note for the model (optional)").fill("keep it");
  await pending.getByRole("button", { name: "Deny" }).click();
  expect(await finishedAnswer(page)).toContain("Understood, I left the note alone.");
  await context.close();

  expect(await deletions("declined")).toBe(0);
  const toModel = stack.mock
    .getRequests()
    .map((r) => JSON.stringify(r.body))
    .filter((b) => b.includes("the user declined: keep it"));
  expect(toModel).toHaveLength(1);
});

it("a restart of the service while the approval waits loses nothing: approved afterwards, the tool runs once", async () => {
  const id = await conversation();
  const first = await parkOnFirstDevice(id, "restarted");
  await first.context.close();

  await stack.restart();

  const second = await device(id);
  await card(second.page).getByRole("button", { name: "Approve" }).click();
  expect(await finishedAnswer(second.page)).toContain("Note restarted is gone.");
  expect(await deletions("restarted")).toBe(1);
  // The answer was asked of the model once before the restart and once after the approval
  // (the cheap model's title request quotes the message too, and is not the answer's).
  const calls = stack.mock
    .getRequests()
    .map((r) => JSON.stringify(r.body))
    .filter((b) => b.includes("delete note restarted") && !b.includes(TITLE_INSTRUCTION));
  expect(calls).toHaveLength(2);
  await second.context.close();
});

it("an approval nobody answers expires as denied, and the model is told", async () => {
  const id = await conversation(true);
  const { context, page } = await parkOnFirstDevice(id, "expired");
  expect(await finishedAnswer(page)).toContain("Nobody approved, so I left the note alone.");
  expect(await card(page).textContent()).toContain("Denied: nobody answered in time");
  expect(await deletions("expired")).toBe(0);
  await context.close();
});

/**
 * Tests a server in Settings and opens its Approvals, as a user does: the result first, then the
 * list. Clicking Approvals while the result is still coming lands where the result then appears
 * (it pushes the list down), so the details stayed shut and the tools never showed (CI, once).
 */
async function testAndOpenApprovals(server: Locator): Promise<void> {
  await server.getByRole("button", { name: "Test" }).click();
  // On a loaded machine the Test took over 15 s once (CI): allow for it.
  await server
    .getByRole("status")
    .filter({ hasText: /^Connected to notes/ })
    .waitFor({ timeout: 40_000 });
  const approvals = server.locator("details.tool-policies");
  await approvals.locator("summary").click();
  await expect.poll(() => approvals.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
}

it("Settings: 'allow' for all conversations and 'never' for one are stored, and the next turn runs the tool without asking", async () => {
  const id = await conversation();
  const { context, page } = await device(id);
  await page.getByRole("button", { name: "Settings" }).click();
  const settings = page.getByRole("dialog", { name: "Settings" });
  const server = settings.getByRole("group", { name: "notes" });
  await testAndOpenApprovals(server);
  const deleteNote = server.getByRole("combobox", { name: /^delete_note/ });
  // The default comes from the tool's annotations: destructive, so it asks.
  expect(await deleteNote.locator("option").first().textContent()).toBe("Not set (ask)");
  expect(await server.textContent()).toContain("Default from its annotations: ask.");

  await server.getByRole("radio", { name: "All my conversations" }).check();
  await deleteNote.selectOption("allow");
  await expect
    .poll(async () => (await (await rest("/api/tool-policies")).json()) as unknown)
    .toEqual({ policies: { notes: { tools: { delete_note: "allow" } } } });

  await page.keyboard.press("Escape");
  await settings.waitFor({ state: "detached" });
  await ask(page, "delete note allowed");
  expect(await finishedAnswer(page)).toContain("Note allowed is gone.");
  expect(await card(page).count()).toBe(0);
  expect(await deletions("allowed")).toBe(1);

  await page.getByRole("button", { name: "Settings" }).click();
  await testAndOpenApprovals(server);
  // This conversation's own choice: it falls back to the user's 'allow'.
  expect(await deleteNote.locator("option").first().textContent()).toBe("Not set (allow)");
  await deleteNote.selectOption("never");
  await expect
    .poll(
      async () =>
        ((await (await rest(`/api/conversations/${id}`)).json()) as { settings: unknown }).settings,
    )
    .toMatchObject({ toolPolicies: { notes: { tools: { delete_note: "never" } } } });
  await context.close();
});
