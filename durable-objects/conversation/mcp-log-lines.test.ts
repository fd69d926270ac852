// A server's log lines (notifications/message) during a tool call reach the timeline as tool_log
// events, from server-everything's simulated logging (one line every five seconds per session).
import { expect, inject, it } from "vitest";
import { api, createConversation, createUser } from "../../tests/support/helpers";
import { fold, TestSocket, turnEnded } from "../../tests/support/ws-client";

it("log lines a server sends while a tool runs show up as tool_log events of that server", async () => {
  const user = await createUser();
  await api(user, "/api/mcp-servers", {
    method: "POST",
    json: { name: "everything", url: inject("everythingUrl") },
  });
  const conv = await createConversation(user, { settings: { blockedServers: ["mcp-remote"] } });
  const ws = await TestSocket.open(user, conv.id);
  ws.send({ type: "resume", lastSeq: 0 });
  ws.send({ type: "send", clientMessageId: "l1", text: "log lines while working" });
  await ws.until(turnEnded, 30_000);
  ws.close();
  const events = ws.events();
  const logs = events.filter((e) => e.type === "tool_log");
  expect(logs.length).toBeGreaterThanOrEqual(1);
  for (const log of logs)
    expect(log).toMatchObject({
      server: "everything",
      level: expect.stringMatching(/^(debug|info|notice|warning|error|critical|alert|emergency)$/),
      data: expect.stringMatching(/-level message - SessionId |level-message - SessionId /),
    });
  // The lines are shown with the answer, under the server that sent them.
  const answer = fold(events).messages[1];
  expect(answer?.activity?.log.map((l) => l.source)).toContain("everything");
  expect(answer?.content.at(-1)).toEqual({ type: "text", text: "The long operation finished." });
}, 40_000);
