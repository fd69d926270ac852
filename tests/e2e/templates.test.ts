// A conversation made from a template, in Debian's chromium against the real stack: the
// template's starting messages are on screen at the top of the conversation, open until it has
// messages of its own, then folded.
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { launchChromium, watchPage } from "./browser";
import { type Stack, startStack } from "./stack";

let stack: Stack;
let browser: Browser;
beforeAll(async () => {
  stack = await startStack((mock) => mock.onMessage(/.*/, { content: "Noted." }));
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

const bearer = async (path: string, body: unknown) => {
  const res = await fetch(`${stack.url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${stack.token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string };
};

it("shows the template's starting messages at the top of a conversation made from it", async () => {
  const template = await bearer("/api/templates", {
    name: "Terse reviewer",
    systemPrompt: "Review as {{model}}.",
    messages: [
      { role: "user", content: "Answer in one sentence." },
      { role: "assistant", content: "Understood: one sentence each time." },
    ],
  });
  const conversation = await bearer("/api/conversations", { templateId: template.id });

  const page = await (
    await browser.newContext({ viewport: { width: 1400, height: 900 } })
  ).newPage();
  const watch = watchPage(page, stack.url);
  await page.goto(`${stack.url}/#token=${stack.token}`);
  await page.getByRole("button", { name: "New conversation", exact: true }).waitFor();
  await page.goto(`${stack.url}/?c=${conversation.id}`);

  const start = page.getByTestId("template-start");
  await start.waitFor({ timeout: 30_000 });
  expect(await start.locator("summary").textContent()).toBe(
    "Started from the template “Terse reviewer”: 2 starting messages",
  );
  await expect.poll(() => start.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
  expect(await start.getByTestId("template-message-user").textContent()).toBe(
    "Answer in one sentence.",
  );
  await expect
    .poll(() => start.getByTestId("template-message-assistant").textContent(), { timeout: 15_000 })
    .toContain("Understood: one sentence each time.");
  // Not among the conversation's own messages, and not the system prompt.
  expect(await page.getByTestId("messages").textContent()).not.toContain("Answer in one sentence.");
  expect(await page.textContent("body")).not.toContain("Review as");

  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("What is a p-value?");
  await box.press("Enter");
  await page.getByTestId("message-assistant").getByText("Noted.").waitFor({ timeout: 60_000 });
  // Folded once the conversation has its own messages; still there to open.
  await expect.poll(() => start.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
  expect(watch.dialogs).toEqual([]);
  expect(watch.outside).toEqual([]);
}, 120_000);
