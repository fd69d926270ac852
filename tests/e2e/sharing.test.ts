// Several people in one conversation, in Debian's chromium against the real stack: the owner
// shares through the Share dialog, three browsers (owner, participant, viewer) see each other,
// authors and typing; owner and participant send at the same moment and both messages are kept
// and answered in order; the viewer cannot send; removing the viewer closes their socket at once;
// deleting the conversation tells the participant who still has it open; a participant leaves
// from the header, and a viewer sees no cost.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startApprovalServer } from "../support/approval-server";
import { launchChromium } from "./browser";
import { type Stack, startStack } from "./stack";

let stack: Stack;
let notes: Awaited<ReturnType<typeof startApprovalServer>>;
let browser: Browser;
let conversationId: string;
beforeAll(async () => {
  notes = await startApprovalServer();
  stack = await startStack(
    (mock) => {
      // "delete note shared" asks for a tool call that waits for approval (support/approval-server).
      mock.on({ toolResultContains: "Deleted note shared" }, { content: "Note shared is gone." });
      mock.onMessage(/delete note shared/, {
        toolCalls: [{ id: "d-shared", name: "notes__delete_note", arguments: '{"name":"shared"}' }],
      });
      mock.onMessage(/.*/, { content: "Noted." });
    },
    { moreUsers: ["bo", "cy"] },
  );
  browser = await launchChromium();
  const created = await fetch(`${stack.url}/api/conversations`, {
    method: "POST",
    headers: { authorization: `Bearer ${stack.token}`, "content-type": "application/json" },
    body: JSON.stringify({ title: "Trip plans" }),
  });
  conversationId = ((await created.json()) as { id: string }).id;
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  await notes?.stop();
});

/** A browser signed in with `token`, with the conversation open. */
async function open(token: string, id = conversationId): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${stack.url}/#token=${token}`);
  await page.getByRole("button", { name: "New conversation", exact: true }).waitFor();
  await page.goto(`${stack.url}/?c=${id}`);
  return page;
}

/**
 * A new conversation of the owner's (`body` as POST /api/conversations takes it), shared with bo
 * as a participant and cy as a viewer, and open in each one's browser.
 */
async function sharedWithBoAndCy(body: Record<string, unknown>) {
  const [bo, cy] = stack.users;
  const owner = { authorization: `Bearer ${stack.token}`, "content-type": "application/json" };
  const created = await fetch(`${stack.url}/api/conversations`, {
    method: "POST",
    headers: owner,
    body: JSON.stringify(body),
  });
  const { id } = (await created.json()) as { id: string };
  for (const [user, role] of [
    ["bo", "participant"],
    ["cy", "viewer"],
  ] as const) {
    const shared = await fetch(`${stack.url}/api/conversations/${id}/members`, {
      method: "PUT",
      headers: owner,
      body: JSON.stringify({ user, role }),
    });
    expect(shared.status).toBe(200);
  }
  const [ownerPage, boPage, cyPage] = await Promise.all([
    open(stack.token, id),
    open(bo!.token, id),
    open(cy!.token, id),
  ]);
  return { id, ownerPage, boPage, cyPage };
}

const WAIT = { timeout: 60_000 };
const names = (page: Page) => page.getByTestId("presence-person").allTextContents();
const authors = (page: Page) => page.getByTestId("message-author").allTextContents();

it("two people write at once, a viewer follows, and removing the viewer closes their socket", async () => {
  const [bo, cy] = stack.users;
  const owner = await open(stack.token);

  // The owner shares through the dialog: bo may write, cy may only read.
  await owner.getByTestId("share-button").click(WAIT);
  const dialog = owner.getByTestId("share-dialog");
  for (const [i, [name, role]] of (
    [
      ["bo", "participant"],
      ["cy", "viewer"],
    ] as const
  ).entries()) {
    await dialog.getByTestId("share-name").fill(name);
    await dialog.getByTestId("share-role").selectOption(role);
    await dialog.getByTestId("share-add").click();
    await expect.poll(() => dialog.getByTestId("share-member").count(), WAIT).toBe(i + 1);
  }
  await dialog.getByRole("button", { name: "Done" }).click();

  const participant = await open(bo!.token);
  const viewer = await open(cy!.token);

  // Presence: everyone sees everyone, owner first.
  await expect
    .poll(() => names(owner), WAIT)
    .toEqual(["You · owner", "bo · participant", "cy · viewer"]);
  await expect
    .poll(() => names(viewer), WAIT)
    .toEqual(["e2e · owner", "bo · participant", "You · viewer"]);

  // The viewer reads but cannot write, and is told why.
  await viewer.getByTestId("viewer-notice").waitFor(WAIT);
  expect(await viewer.getByTestId("viewer-notice").textContent()).toMatch(/You are a viewer/);
  expect(await viewer.getByRole("textbox", { name: "Message" }).count()).toBe(0);
  expect(await viewer.getByTestId("share-button").count()).toBe(0);

  // Typing shows on the others' pages.
  const boBox = participant.getByRole("textbox", { name: "Message" });
  await boBox.fill("draft");
  await owner.getByTestId("typing").waitFor(WAIT);
  expect(await owner.getByTestId("typing").textContent()).toBe("bo is typing…");

  // Both send at the same moment: both messages are kept, each answered, in one order for all.
  const ownerBox = owner.getByRole("textbox", { name: "Message" });
  await ownerBox.fill("from the owner");
  await boBox.fill("from bo");
  await Promise.all([ownerBox.press("Enter"), boBox.press("Enter")]);
  for (const page of [owner, participant, viewer]) {
    await expect.poll(() => page.getByTestId("message-assistant").count(), WAIT).toBe(2);
    await expect
      .poll(
        () => page.locator('[data-testid="message-assistant"][data-status="complete"]').count(),
        WAIT,
      )
      .toBe(2);
  }
  const order = async (page: Page) =>
    (await page.getByTestId("message-user").allTextContents()).map((t) =>
      t.includes("from bo") ? "bo" : "owner",
    );
  const seen = await order(owner);
  expect(seen.sort()).toEqual(["bo", "owner"]);
  expect(await order(participant)).toEqual(await order(owner));
  expect(await order(viewer)).toEqual(await order(owner));
  // Branching is the owner's: members are offered no Regenerate, Edit or Branch here.
  const offers = (page: Page) => page.getByRole("button", { name: "Branch here" }).count();
  expect(await offers(owner)).toBe(2);
  expect(await offers(participant)).toBe(0);
  expect(await participant.getByRole("button", { name: "Edit", exact: true }).count()).toBe(0);
  expect(await offers(viewer)).toBe(0);
  // Authors: "You" for your own message, the name for the other's.
  const ownerAuthors = await authors(owner);
  expect(ownerAuthors.sort()).toEqual(["You", "bo"]);
  expect((await authors(viewer)).sort()).toEqual(["bo", "e2e"]);

  // The owner removes the viewer: their page says so at once, without them doing anything.
  await owner.getByTestId("share-button").click();
  await dialog
    .getByTestId("share-member")
    .filter({ hasText: "cy" })
    .getByRole("button", { name: "Remove" })
    .click();
  await expect.poll(() => dialog.getByTestId("share-member").count(), WAIT).toBe(1);
  await viewer.getByTestId("access-revoked").waitFor(WAIT);
  await expect.poll(() => names(owner), WAIT).toEqual(["You · owner", "bo · participant"]);
  // Reloaded, the conversation is no longer theirs to open, and the API says why.
  const gone = await fetch(`${stack.url}/api/conversations/${conversationId}`, {
    headers: { authorization: `Bearer ${cy!.token}` },
  });
  expect(gone.status).toBe(403);
  expect(((await gone.json()) as { error: { message: string } }).error.message).toMatch(
    /^The owner stopped sharing this conversation with you/,
  );

  // The owner deletes the conversation while bo has it open: bo's page says so and takes no
  // more messages (it used to stay as it was, the message box still there).
  await owner.getByTestId("share-dialog").getByRole("button", { name: "Done" }).click();
  const deleted = await fetch(`${stack.url}/api/conversations/${conversationId}`, {
    method: "DELETE",
    headers: { authorization: `Bearer ${stack.token}` },
  });
  expect(deleted.status).toBe(204);
  await participant.getByTestId("conversation-deleted").waitFor(WAIT);
  expect(await participant.getByTestId("conversation-deleted").textContent()).toMatch(
    /Its owner deleted this conversation/,
  );
  expect(await participant.getByRole("textbox", { name: "Message" }).count()).toBe(0);
}, 300_000);

it("an approval in a shared conversation: a viewer cannot answer, a participant is not offered 'always allow', and every card names who decided", async () => {
  const owner = { authorization: `Bearer ${stack.token}`, "content-type": "application/json" };
  const server = await fetch(`${stack.url}/api/mcp-servers`, {
    method: "POST",
    headers: owner,
    body: JSON.stringify({ name: "notes", url: notes.url }),
  });
  expect(server.status).toBe(201);
  const { id, ownerPage, boPage, cyPage } = await sharedWithBoAndCy({
    title: "Tidy up",
    settings: { approvalTimeoutSeconds: 3600 },
  });
  const box = boPage.getByRole("textbox", { name: "Message" });
  await box.fill("delete note shared");
  await box.press("Enter");
  const card = (page: Page) => page.getByRole("region", { name: "Approval for delete_note" });
  for (const page of [ownerPage, boPage, cyPage]) await card(page).waitFor(WAIT);

  // The viewer sees the question without buttons; bo may answer but not for good.
  expect(await card(cyPage).getByRole("button").count()).toBe(0);
  expect(await card(cyPage).textContent()).toContain("as a viewer you cannot answer");
  await card(boPage).getByRole("button", { name: "Approve" }).waitFor(WAIT);
  expect(await card(boPage).getByText("Always allow this tool").count()).toBe(0);
  expect(await card(ownerPage).getByText("Always allow this tool").count()).toBe(1);

  await card(boPage).getByRole("button", { name: "Approve" }).click();
  for (const [page, who] of [
    [boPage, "you"],
    [ownerPage, "bo"],
    [cyPage, "bo"],
  ] as const)
    await expect
      .poll(() => card(page).getByRole("status").textContent(), WAIT)
      .toMatch(new RegExp(`^Approved by ${who} \\(app,`));
  await boPage.locator('[data-testid="message-assistant"][data-status="complete"]').waitFor(WAIT);
  expect(await boPage.getByTestId("message-assistant").textContent()).toContain(
    "Note shared is gone.",
  );

  // Made a viewer while the page is open: the message box goes, and the header says so too.
  const demoted = await fetch(`${stack.url}/api/conversations/${id}/members`, {
    method: "PUT",
    headers: owner,
    body: JSON.stringify({ user: "bo", role: "viewer" }),
  });
  expect(demoted.status).toBe(200);
  await boPage.getByTestId("viewer-notice").waitFor(WAIT);
  await expect
    .poll(() => boPage.getByTestId("shared-by").textContent(), WAIT)
    .toMatch(/you are a viewer/);
}, 300_000);

it("a participant leaves from the header: after confirming, it goes from their list and the page says they left; a viewer sees no cost", async () => {
  const [bo] = stack.users;
  const { id, ownerPage, boPage, cyPage } = await sharedWithBoAndCy({ title: "Packing list" });
  await expect
    .poll(() => names(ownerPage), WAIT)
    .toEqual(["You · owner", "bo · participant", "cy · viewer"]);

  // An answer: its cost shows to the owner and to bo, never to the viewer.
  const box = boPage.getByRole("textbox", { name: "Message" });
  await box.fill("what do we pack");
  await box.press("Enter");
  for (const page of [ownerPage, boPage, cyPage])
    await page.locator('[data-testid="message-assistant"][data-status="complete"]').waitFor(WAIT);
  await ownerPage.getByTestId("usage-meter").first().waitFor(WAIT);
  await boPage.getByTestId("usage-meter").first().waitFor(WAIT);
  expect(await cyPage.getByTestId("usage-meter").count()).toBe(0);

  // bo has it open in a second tab too.
  const boTab = await boPage.context().newPage();
  await boTab.goto(`${stack.url}/?c=${id}`);
  await boTab.locator('[data-testid="message-assistant"][data-status="complete"]').waitFor(WAIT);

  // bo leaves: asked first, then the conversation goes from "Shared with you".
  const listed = () => boPage.getByTestId("shared-with-me").getByText("Packing list").count();
  await expect.poll(listed, WAIT).toBe(1);
  await boPage.getByRole("button", { name: "Leave", exact: true }).click(WAIT);
  const confirm = boPage.getByRole("dialog", { name: "Leave this conversation?" });
  expect(await confirm.textContent()).toContain("Only e2e can share it with you again");
  await confirm.getByRole("button", { name: "Leave conversation" }).click();
  await boPage.getByTestId("left-conversation").waitFor(WAIT);
  expect(await boPage.getByTestId("left-conversation").textContent()).toContain(
    "You left “Packing list”",
  );
  // Their own leaving is not told as the owner's doing, in this tab or the other.
  expect(await boPage.getByTestId("access-revoked").count()).toBe(0);
  await boTab.getByTestId("left-conversation").waitFor(WAIT);
  expect(await boTab.getByTestId("access-revoked").count()).toBe(0);
  await expect.poll(listed, WAIT).toBe(0);
  await expect.poll(() => names(ownerPage), WAIT).toEqual(["You · owner", "cy · viewer"]);
  const reopened = await fetch(`${stack.url}/api/conversations/${id}`, {
    headers: { authorization: `Bearer ${bo!.token}` },
  });
  expect(reopened.status).toBe(403);
  expect(((await reopened.json()) as { error: { message: string } }).error.message).toMatch(
    /^You left this conversation/,
  );
}, 300_000);
