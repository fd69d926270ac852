import { inject } from "vitest";
import { beforeAll, describe, expect, it } from "vitest";
import { api, createConversation, createUser, type TestUser } from "../../tests/support/helpers";
import { fold, TestSocket, turnEnded, turnInNewConversation } from "../../tests/support/ws-client";

let user: TestUser;
beforeAll(async () => {
  user = await createUser();
  for (const name of ["everything", "everything2"]) {
    const res = await api(user, "/api/mcp-servers", {
      method: "POST",
      json: { name, url: inject("everythingUrl") },
    });
    expect(res.status).toBe(201);
  }
});

const turn = (text: string, settings: Record<string, unknown> = {}) =>
  turnInNewConversation(user, text, { settings });

describe("loop rules", () => {
  it("invalid formatter output goes back to the model with what is wrong, and one repair is enough", async () => {
    const events = await turn("format badly once");
    const answer = fold(events).messages[1]!;
    expect(answer.status).toBe("complete");
    expect(answer.content.filter((p) => p.type === "text")).toEqual([
      { type: "text", text: "Repaired answer." },
    ]);
  });

  it("a formatter that is never valid ends in the plain text after two repairs", async () => {
    const events = await turn("format badly always");
    const answer = fold(events).messages[1]!;
    expect(answer.status).toBe("complete");
    expect(
      answer.content
        .filter((p) => p.type === "text")
        .map((p) => p.type === "text" && p.text)
        .join(""),
    ).toContain("Plain text after all.");
    // The first call and at most two repairs, then one forced attempt at most: never an endless loop.
    expect(events.filter((e) => e.type === "step_started").length).toBeLessThanOrEqual(3);
  });

  it("two servers with the same tool names: names stay apart and each call reaches the server the model named", async () => {
    const events = await turn("collide please");
    const call = events.find((e) => e.type === "tool_call");
    expect(call).toMatchObject({ server: "everything2", tool: "echo" });
    expect(fold(events).messages[1]?.content.filter((p) => p.type === "text")).toEqual([
      { type: "text", text: "The second server answered." },
    ]);
  });

  it("the allow-list offers only the enabled tools: a call to any other is refused, never run", async () => {
    const events = await turn("three step question", {
      enabledTools: { everything: ["echo"] },
      blockedServers: ["everything2"],
    });
    const results = events.flatMap((e) =>
      e.type === "tool_result" ? [[e.callId, e.isError, e.summary]] : [],
    );
    expect(results[0]).toEqual(["c1", false, expect.stringContaining("Echo: step one")]);
    expect(results.find((r) => r[0] === "c2")).toEqual([
      "c2",
      true,
      expect.stringContaining("unknown tool"),
    ]);
    expect(
      events.some((e) => e.type === "artifact_created" && e.artifact.type === "image/png"),
    ).toBe(false);
  });
});

describe("context", () => {
  it("pinned artifacts go to the model with the next message, in the mode's system prompt", async () => {
    const { insertArtifact } = await import("../../tests/support/helpers");
    const conv = await createConversation(user, { mode: "graph" });
    const marker = `pinned-note-${crypto.randomUUID()}`;
    const id = await insertArtifact(conv.id, {
      type: "text/markdown",
      title: "Lab notes",
      content: `# Notes\n${marker}`,
    });
    expect((await api(user, `/api/artifacts/${id}/pin`, { method: "PUT" })).status).toBe(200);
    const ws = await TestSocket.open(user, conv.id);
    ws.send({ type: "resume", lastSeq: 0 });
    ws.send({ type: "send", clientMessageId: "pin-1", text: "what did I pin?" });
    await ws.until(turnEnded, 30_000);
    ws.close();
    // What the provider received, from aimock's request journal.
    const journal = (await (
      await fetch(`${inject("aimockUrl")}/__aimock/journal?limit=1000`)
    ).json()) as unknown;
    const entries = Array.isArray(journal)
      ? journal
      : ((journal as { entries?: unknown[] }).entries ?? []);
    const sent = entries.map((e) => JSON.stringify(e)).filter((s) => s.includes(marker));
    expect(sent).toHaveLength(1);
    expect(sent[0]).toContain("Pinned Context");
    expect(sent[0]).toContain("Lab notes (text/markdown)");
    expect(sent[0]).toContain("knowledge graph building assistant");
  });
});
