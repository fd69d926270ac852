// Several people in one conversation, in Debian's chromium against the real stack: the owner
// shares through the Share dialog, three browsers (owner, participant, viewer) see each other,
// authors and typing; owner and participant send at the same moment and both messages are kept
// and answered in order; the viewer cannot send; removing the viewer closes their socket at once;
// deleting the conversation tells the participant who still has it open.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { launchChromium } from "./browser";
import { type Stack, startStack } from "./stack";

let stack: Stack;
let browser: Browser;
let conversationId: string;
beforeAll(async () => {
  stack = await startStack((mock) => mock.onMessage(/.*/, { content: "Noted." }), {
    moreUsers: ["bo", "cy"],
  });
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
});

/** A browser signed in with `token`, with the conversation open. */
async function open(token: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${stack.url}/#token=${token}`);
  await page.getByRole("button", { name: "New conversation", exact: true }).waitFor();
  await page.goto(`${stack.url}/?c=${conversationId}`);
  return page;
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
  // Reloaded, the conversation is no longer theirs to open.
  expect(
    (
      await fetch(`${stack.url}/api/conversations/${conversationId}`, {
        headers: { authorization: `Bearer ${cy!.token}` },
      })
    ).status,
  ).toBe(404);

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
