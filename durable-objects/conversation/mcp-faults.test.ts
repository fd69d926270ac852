import { inject } from "vitest";
import { describe, expect, it } from "vitest";
import { api, createConversation, createUser, type TestUser } from "../../tests/support/helpers";
import { fold, TestSocket, turnInNewConversation } from "../../tests/support/ws-client";

async function userWithServer(name: string, url: string, timeoutMs = 1000): Promise<TestUser> {
  const user = await createUser();
  const res = await api(user, "/api/mcp-servers", {
    method: "POST",
    json: { name, url, timeoutMs },
  });
  expect(res.status).toBe(201);
  return user;
}

const turn = turnInNewConversation;

const notices = (events: Awaited<ReturnType<typeof turn>>) =>
  events.flatMap((e) => (e.type === "notice" ? [e.message] : []));

describe("a failing MCP server never breaks the conversation", () => {
  it("a server that is down: the turn is answered and the user is told", async () => {
    const user = await userWithServer("down", "http://127.0.0.1:9/mcp");
    const events = await turn(user, "hello while down");
    expect(fold(events).messages[1]).toMatchObject({
      status: "complete",
      content: [{ type: "text", text: "Hello! I am a mock model." }],
    });
    expect(notices(events).join(" ")).toMatch(/'down' is unavailable/);
  });

  it("a server that hangs times out (its own timeout), and one that answers garbage is reported", async () => {
    const hang = await userWithServer("hangs", `${inject("faultyUrl")}/hang`);
    const started = Date.now();
    const events = await turn(hang, "hello while hanging");
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(notices(events).join(" ")).toMatch(/'hangs' is unavailable .*time/i);
    expect(fold(events).messages[1]?.status).toBe("complete");

    const garbage = await userWithServer("garbage", `${inject("faultyUrl")}/garbage`);
    const g = await turn(garbage, "hello with garbage");
    expect(notices(g).join(" ")).toMatch(/'garbage' is unavailable/);
    expect(fold(g).messages[1]?.status).toBe("complete");
  });

  it("after three failures the circuit opens: the server is skipped without a request, and the model and user are told", async () => {
    const user = await userWithServer("flaky", "http://127.0.0.1:9/mcp");
    // Failures are counted per conversation object; three turns in one conversation.
    const conv = await createConversation(user);
    const ws = await TestSocket.open(user, conv.id);
    ws.send({ type: "resume", lastSeq: 0 });
    for (let i = 1; i <= 4; i++) {
      ws.send({ type: "send", clientMessageId: `flaky-${i}`, text: `attempt ${i}` });
      await ws.until(
        (f) => f.filter((x) => x.type === "turn_ended" || x.type === "turn_failed").length === i,
        30_000,
      );
    }
    ws.close();
    const all = notices(ws.events());
    expect(all.slice(0, 3).every((n) => /'flaky' is unavailable/.test(n))).toBe(true);
    expect(all[2]).toMatch(
      /'flaky' is unavailable \(.*\); it failed 3 times in a row, so it is skipped for 60 s\.$/,
    );
    expect(all[3]).toMatch(
      /'flaky' failed 3 times in a row \(last: network connection lost\) and is skipped for \d+ s; it is tried again/i,
    );
  });
});
