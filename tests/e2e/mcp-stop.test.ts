// Stopping an answer while an MCP tool runs, in Debian's chromium against `wrangler dev`: the
// user sees the call's progress, presses Cancel, and the page ends the answer cleanly (the call
// says it was stopped, nothing keeps spinning, the composer takes the next message) while the
// server is told to stop (notifications/cancelled) and does.
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  addQuirkyServerFixtures,
  type QuirkyServerState,
  startQuirkyServer,
} from "../support/quirky-server";
import { launchChromium } from "./browser";
import { type Stack, startStack } from "./stack";

let stack: Stack;
let quirky: Awaited<ReturnType<typeof startQuirkyServer>>;
let browser: Browser;
const channel = `e2e-${crypto.randomUUID().slice(0, 8)}`;

beforeAll(async () => {
  quirky = await startQuirkyServer();
  stack = await startStack((mock) => addQuirkyServerFixtures(mock));
  const added = await fetch(`${stack.url}/api/mcp-servers`, {
    method: "POST",
    headers: { authorization: `Bearer ${stack.token}`, "content-type": "application/json" },
    body: JSON.stringify({ name: "quirky", url: `${quirky.url}/${channel}/mcp` }),
  });
  expect(added.status).toBe(201);
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  await quirky?.stop();
});

const serverState = async () =>
  (await (await fetch(`${quirky.url}/${channel}/state`)).json()) as QuirkyServerState;

it("Cancel during a long tool call: progress was shown, the call ends as stopped, the server stops", async () => {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  const created = await fetch(`${stack.url}/api/conversations`, {
    method: "POST",
    headers: { authorization: `Bearer ${stack.token}`, "content-type": "application/json" },
    body: JSON.stringify({ title: "stop a tool" }),
  });
  const { id } = (await created.json()) as { id: string };
  // Signed in first (the start link's token becomes a session cookie), then the conversation.
  await page.goto(`${stack.url}/#token=${stack.token}`);
  await page.getByRole("button", { name: "New conversation", exact: true }).waitFor();
  await page.goto(`${stack.url}/?c=${id}`);
  const box = page.getByRole("textbox", { name: "Message" });
  await box.waitFor();
  await box.fill("quirky slow work please");
  await box.press("Enter");

  // The call reports progress: the user sees how far it got.
  const progress = page.getByRole("progressbar", { name: "Progress of slow_work" });
  await progress.waitFor({ timeout: 60_000 });
  await expect.poll(() => page.getByText(/\d+ \/ 40 — step \d+/).count()).toBe(1);

  await page.getByRole("button", { name: "Cancel", exact: true }).click();

  const answer = page.getByTestId("message-assistant").first();
  await answer.and(page.locator('[data-status="cancelled"]')).waitFor({ timeout: 15_000 });
  const call = page.getByTestId("tool-call");
  await expect.poll(() => call.getAttribute("data-status")).toBe("failed");
  expect(await page.getByTestId("tool-summary").textContent()).toContain(
    "quirky: stopped with the answer; the server was asked to cancel slow_work",
  );
  expect(await progress.count()).toBe(0);
  await expect
    .poll(() => page.getByRole("button", { name: "Cancel", exact: true }).count())
    .toBe(0);

  // The server heard of it and stopped long before its 20 s were up.
  await expect.poll(async () => (await serverState()).cancelled).toEqual(["slow_work"]);
  expect((await serverState()).finished).toEqual([]);

  // The next message goes through as usual.
  await box.fill("quirky weather please");
  await box.press("Enter");
  await page
    .getByTestId("message-assistant")
    .nth(1)
    .and(page.locator('[data-status="complete"]'))
    .waitFor({ timeout: 60_000 });
  await context.close();
});
