// Editing an artifact in the real app (wrangler dev, aimock as the model): two tabs edit the same
// document; the second hears of the first's save at once and keeps its draft rather than
// overwriting it; the earlier version stays readable and can be restored; a rename shows in the
// other tab's pane and on both tabs' answer buttons; a rename, a pin and an edit survive a
// reload; a deletion shows on the other tab's button, after a reload too.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { launchChromium } from "./browser";
import { type Stack, startStack } from "./stack";

const ASK = "Draft the plan please";
const TURN_TIMEOUT = 60_000;

let stack: Stack;
let browser: Browser;
beforeAll(async () => {
  stack = await startStack((mock) => {
    mock.onMessage(new RegExp(ASK), {
      toolCalls: [
        {
          name: "response_formatter",
          arguments: JSON.stringify({
            conversation: [
              { type: "text", content: "Here is the plan." },
              {
                type: "artifact",
                content: "The plan",
                artifact: { type: "text/markdown", title: "Plan", content: "# Plan v1" },
              },
            ],
          }),
        },
      ],
    });
    mock.onMessage(/.*/, { content: "Hello from the mock model." });
  });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

const pane = (page: Page) => page.getByRole("complementary", { name: "Artifacts" });
const viewer = (page: Page) => pane(page).getByTestId("artifact-viewer");

async function openPlan(page: Page): Promise<void> {
  await page
    .getByTestId("message-assistant")
    .first()
    .locator("button.artifact-button")
    .click({ timeout: TURN_TIMEOUT });
  await viewer(page).waitFor();
}

async function startEdit(page: Page, text: string): Promise<void> {
  await viewer(page).getByRole("button", { name: "Edit", exact: true }).click();
  await viewer(page).getByLabel("Edit the document").fill(text);
}

async function edit(page: Page, text: string): Promise<void> {
  await startEdit(page, text);
  await viewer(page).getByRole("button", { name: "Save", exact: true }).click();
}

const answerButton = (page: Page) =>
  page.getByTestId("message-assistant").first().locator("button.artifact-button");

it("tells the second of two tabs of the first's edit, rename and delete, and restores a version", async () => {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const one = await context.newPage();
  await one.goto(`${stack.url}/#token=${stack.token}`);
  await one.getByRole("button", { name: "New conversation", exact: true }).click();
  const form = one.getByRole("form", { name: "New conversation" });
  await form.getByRole("button", { name: "Create" }).click();
  await one.waitForURL((url) => url.searchParams.get("c") !== null);
  const box = one.getByRole("textbox", { name: "Message" });
  await box.fill(ASK);
  await box.press("Enter");
  await openPlan(one);

  // A second tab opens the same artifact before the first saves.
  const two = await context.newPage();
  await two.goto(one.url());
  await openPlan(two);

  // Both edit; the first saves, and the second is told at once, its draft kept to copy from.
  await startEdit(two, "# Plan v2 from tab two");
  await edit(one, "# Plan v2 from tab one");
  await expect.poll(() => viewer(one).textContent()).toContain("Plan v2 from tab one");
  const told = viewer(two).getByRole("alert");
  await expect.poll(() => told.textContent()).toMatch(/Changed in another tab/);
  expect(await viewer(two).getByLabel("Edit the document").inputValue()).toBe(
    "# Plan v2 from tab two",
  );
  await viewer(two).getByRole("button", { name: "Reload (drops your edit)" }).click();
  await expect.poll(() => viewer(two).textContent()).toContain("Plan v2 from tab one");

  // The first version is still there, and comes back.
  await viewer(one).getByRole("button", { name: "Earlier versions" }).click();
  await viewer(one)
    .getByRole("button", { name: /^Saved / })
    .click();
  await expect
    .poll(() => viewer(one).getByTestId("artifact-version-content").textContent())
    .toBe("# Plan v1");
  await viewer(one).getByRole("button", { name: "Restore this version" }).click();
  await expect.poll(() => viewer(one).getByRole("heading", { name: "Plan v1" }).count()).toBe(1);

  // Rename and pin, then reload: all of it is still there.
  await pane(one).getByRole("button", { name: "Rename" }).click();
  await pane(one).getByLabel("New title").fill("Launch plan");
  await pane(one).getByRole("button", { name: "Save title" }).click();
  await expect
    .poll(() => pane(one).getByRole("heading", { level: 2 }).first().textContent())
    .toBe("Launch plan");
  // The other tab's pane and both tabs' answer buttons read the new title at once.
  await expect
    .poll(() => pane(two).getByRole("heading", { level: 2 }).first().textContent())
    .toBe("Launch plan");
  await expect.poll(() => answerButton(one).textContent()).toBe("Launch plan");
  await expect.poll(() => answerButton(two).textContent()).toBe("Launch plan");
  await pane(one).getByRole("button", { name: /^Pin/ }).click();
  await expect.poll(() => one.getByTestId("pinned-note").textContent()).toContain("Launch plan");
  await one.reload();
  await expect
    .poll(() => one.getByTestId("pinned-note").textContent(), { timeout: 20_000 })
    .toContain("Launch plan");
  await expect.poll(() => answerButton(one).textContent()).toBe("Launch plan");
  await openPlan(one);
  await expect.poll(() => viewer(one).textContent()).toContain("Plan v1");

  // Deleted in one tab: the other's pane and button say so, and its button no longer opens it.
  await pane(one).getByRole("button", { name: "Delete", exact: true }).click();
  await pane(one).getByRole("button", { name: "Yes, delete" }).click();
  await expect.poll(() => pane(two).getByRole("alert").textContent()).toMatch(/was deleted/);
  await expect.poll(() => answerButton(two).textContent()).toBe("Launch plan (deleted)");
  expect(await answerButton(two).isDisabled()).toBe(true);
  await two.reload();
  await expect
    .poll(() => answerButton(two).textContent(), { timeout: 20_000 })
    .toBe("Launch plan (deleted)");
  expect(await answerButton(two).isDisabled()).toBe(true);
  await context.close();
});
