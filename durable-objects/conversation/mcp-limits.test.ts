import { inject } from "vitest";
import { expect, it } from "vitest";
import { api, createUser } from "../../tests/support/helpers";
import { fold, turnInNewConversation } from "../../tests/support/ws-client";

const turn = turnInNewConversation;

it("progress notifications reset a tool's timeout: a 2 s tool finishes under a 1 s timeout while it reports progress", async () => {
  const user = await createUser();
  await api(user, "/api/mcp-servers", {
    method: "POST",
    json: { name: "everything", url: inject("everythingUrl"), timeoutMs: 1000 },
  });
  const events = await turn(user, "slow progress please");
  expect(events.filter((e) => e.type === "tool_progress").length).toBeGreaterThanOrEqual(3);
  expect(events.find((e) => e.type === "tool_result")).toMatchObject({ isError: false });
  expect(fold(events).messages[1]?.content.at(-1)).toEqual({
    type: "text",
    text: "The long operation finished.",
  });
});

it("a tool that reports progress forever is cut off at its server's maximum total time, and the model is told", async () => {
  const user = await createUser();
  await api(user, "/api/mcp-servers", {
    method: "POST",
    json: {
      name: "everything",
      url: inject("everythingUrl"),
      timeoutMs: 1000,
      maxTotalTimeoutMs: 3000,
    },
  });
  const started = Date.now();
  // The tool reports progress every half second for ten seconds.
  const events = await turn(user, "endless progress please");
  expect(Date.now() - started).toBeLessThan(8_000);
  expect(events.filter((e) => e.type === "tool_progress").length).toBeGreaterThanOrEqual(3);
  expect(events.find((e) => e.type === "tool_result")).toMatchObject({ isError: true });
  expect(fold(events).messages[1]?.content.at(-1)).toEqual({
    type: "text",
    text: "The tool took too long.",
  });
});

it("sequential-thinking tools are never offered to the model", async () => {
  const user = await createUser();
  await api(user, "/api/mcp-servers", {
    method: "POST",
    json: { name: "sequential-thinking", url: inject("everythingUrl") },
  });
  const events = await turn(user, "think in sequence");
  expect(events.find((e) => e.type === "tool_result")).toMatchObject({
    isError: true,
    summary: expect.stringContaining("unknown tool"),
  });
});
