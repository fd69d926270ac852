// The audit log as a user downloads it, in Debian's chromium against `wrangler dev`: a three-step
// turn whose second step's tool call waits for approval, approved in the page; the timeline's
// step timings; then the conversation's "Download audit log" link, read back as JSON Lines, and
// its Markdown export.
import { readFile } from "node:fs/promises";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startApprovalServer } from "../support/approval-server";
import { addAuditFixtures } from "../support/audit-fixtures";
import { launchChromium } from "./browser";
import { type Stack, startStack } from "./stack";

const TURN_TIMEOUT = 60_000;

let stack: Stack;
let notes: Awaited<ReturnType<typeof startApprovalServer>>;
let browser: Browser;
beforeAll(async () => {
  notes = await startApprovalServer();
  stack = await startStack(addAuditFixtures);
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

it("downloads the audit log of a turn with an approval from the client, as JSON Lines in order", async () => {
  const created = await rest("/api/conversations", { title: "audited" });
  expect(created.status).toBe(201);
  const { id } = (await created.json()) as { id: string };

  const context = await browser.newContext({
    viewport: { width: 1400, height: 900 },
    acceptDownloads: true,
  });
  const page = await context.newPage();
  await page.goto(`${stack.url}/#token=${stack.token}`);
  await page.getByRole("button", { name: "New conversation", exact: true }).waitFor();
  await page.goto(`${stack.url}/?c=${id}`);
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("audited approval question");
  await box.press("Enter");

  const card = page.getByRole("region", { name: "Approval for delete_note" });
  await card.getByRole("button", { name: "Approve" }).click({ timeout: TURN_TIMEOUT });
  const answer = page.getByTestId("message-assistant").first();
  await answer.and(page.locator('[data-status="complete"]')).waitFor({ timeout: TURN_TIMEOUT });
  expect(await answer.textContent()).toContain("Listed the notes and deleted one.");

  // The timeline shows each step's timings; the step parked at the approval counts the wait.
  const steps = answer.getByTestId("step-timings");
  await expect.poll(() => steps.count(), { timeout: TURN_TIMEOUT }).toBe(3);
  expect(await steps.locator("summary").allTextContents()).toEqual([
    expect.stringMatching(/^Step 1 took \d/),
    expect.stringMatching(/^Step 2 took \d/),
    expect.stringMatching(/^Step 3 took \d/),
  ]);
  const parked = steps.nth(1);
  await parked.locator("summary").click();
  expect(await parked.getAttribute("open")).not.toBeNull();
  const phases = await parked.locator("li").allTextContents();
  expect(phases).toContainEqual(expect.stringMatching(/^Model: .+: first token after \d/));
  expect(phases).toContainEqual(expect.stringMatching(/^Tools on notes: 1 call, \d/));
  expect(phases).toContainEqual(expect.stringMatching(/^Paused \(approval or restart\): \d/));

  const link = page.getByTestId("audit-download");
  const [download] = await Promise.all([
    page.waitForEvent("download", { timeout: TURN_TIMEOUT }),
    link.click({ timeout: TURN_TIMEOUT }),
  ]);
  expect(download.suggestedFilename()).toBe(`audit-${id}.jsonl`);
  const text = await readFile(await download.path(), "utf8");
  // The whole conversation, as a Markdown file named after its title.
  const [exported] = await Promise.all([
    page.waitForEvent("download", { timeout: TURN_TIMEOUT }),
    page.getByTestId("export-markdown").click({ timeout: TURN_TIMEOUT }),
  ]);
  expect(exported.suggestedFilename()).toBe("audited.md");
  const markdown = await readFile(await exported.path(), "utf8");
  expect(markdown).toMatch(/^# audited\n/);
  expect(markdown).toContain("audited approval question");
  expect(markdown).toContain("- Tool `notes.delete_note` (done)");
  expect(markdown).toContain("Listed the notes and deleted one.");
  await context.close();

  // One JSON object per line, each ending in a newline.
  expect(text.endsWith("\n")).toBe(true);
  const entries = text
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  expect(entries.map((e) => [e.kind, e.tool ?? null])).toEqual([
    ["model_request", null],
    ["model_response", null],
    ["tool_call", "list_notes"],
    ["tool_result", null],
    ["model_request", null],
    ["model_response", null],
    ["tool_call", "delete_note"],
    ["approval_requested", "delete_note"],
    ["approval_decided", null],
    ["tool_result", null],
    ["model_request", null],
    ["model_response", null],
  ]);
  expect(entries.filter((e) => e.kind === "model_request").map((e) => e.step)).toEqual([1, 2, 3]);
  // Approved in the page, over its WebSocket, by the signed-in user.
  expect(entries[8]).toMatchObject({
    decision: "approve",
    by: { via: "websocket", userId: expect.any(String) },
  });
  expect(entries[9]).toMatchObject({ isError: false, summary: "Deleted note audited" });
  for (const e of entries) expect(Date.parse(e.at as string)).not.toBeNaN();
});
