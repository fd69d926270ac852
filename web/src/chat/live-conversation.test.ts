// The live connection against a real WebSocket server: it reconnects after failures, and stops
// for good when the server says the credential was revoked (4401) or the conversation is gone.
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  type Close,
  type ClosingSocketServer,
  startClosingSocketServer,
} from "./closing-socket-server";
import { beginNewConversation, creationOf } from "../conversations/new-conversation";
import { type LiveState, LiveConversation } from "./live-conversation";

let server: ClosingSocketServer | undefined;
let live: LiveConversation | undefined;
afterEach(async () => {
  live?.close();
  await server?.stop();
  vi.unstubAllGlobals();
});

/** Connects as the page at `host` would, and records every state it goes through. */
async function connect(
  closeCodes: Close[],
  { id = "c1", frames = [] }: { id?: string; frames?: (string | undefined)[] } = {},
): Promise<LiveState[]> {
  server = await startClosingSocketServer(closeCodes, frames);
  vi.stubGlobal("location", { protocol: "http:", host: server.host });
  // The browser's online/offline events: nothing fires them here.
  vi.stubGlobal("addEventListener", () => undefined);
  vi.stubGlobal("removeEventListener", () => undefined);
  const states: LiveState[] = [];
  live = new LiveConversation(id, (s) => states.push(s));
  return states;
}

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("LiveConversation", () => {
  it("after a failure it reconnects; when its credential is revoked (4401) it stops and says so", async () => {
    const states = await connect([1011, 4401]);
    await vi.waitFor(() => expect(states.at(-1)?.connection).toBe("signed-out"), {
      timeout: 5000,
    });
    expect(server!.connections()).toBe(2);
    // Longer than its next backoff (1 s): no third attempt.
    await settle(1500);
    expect(server!.connections()).toBe(2);
    expect(states.at(-1)?.connection).toBe("signed-out");
  });

  it("stops when the owner stops sharing the conversation (4403), and says so", async () => {
    const states = await connect([4403]);
    await vi.waitFor(() => expect(states.at(-1)?.connection).toBe("access-revoked"), {
      timeout: 5000,
    });
    await settle(1000);
    expect(server!.connections()).toBe(1);
  });

  it("stops when the user left the conversation in another tab (4403 'left'), and says that instead", async () => {
    const states = await connect([{ code: 4403, reason: "left" }]);
    await vi.waitFor(() => expect(states.at(-1)?.connection).toBe("left"), { timeout: 5000 });
    await settle(1000);
    expect(server!.connections()).toBe(1);
    expect(states.some((s) => s.connection === "access-revoked")).toBe(false);
  });

  it("stops when the conversation is deleted (4404) while open, and says so", async () => {
    const states = await connect([4404]);
    await vi.waitFor(() => expect(states.at(-1)?.connection).toBe("deleted"), { timeout: 5000 });
    await settle(1000);
    expect(server!.connections()).toBe(1);
    expect(states.at(-1)?.connection).toBe("deleted");
    expect(states.every((s) => s.connection !== "signed-out")).toBe(true);
  });

  it("a new conversation's socket asks to create it until it is synced; then it is an ordinary reconnect", async () => {
    const conversation = beginNewConversation({ mode: "graph", title: "Plans" });
    const synced = JSON.stringify({ type: "synced", seq: 0, busy: false });
    await connect([1011, 4404], { id: conversation.id, frames: [synced] });
    await vi.waitFor(() => expect(server!.connections()).toBe(2), { timeout: 5000 });
    const [first, second] = server!.paths().map((p) => new URL(p, "http://x").searchParams);
    expect(first?.get("new")).toBe("1");
    expect(first?.get("title")).toBe("Plans");
    expect(first?.get("mode")).toBe("graph");
    expect(second?.has("new")).toBe(false);
    await expect(creationOf(conversation.id)).resolves.toBeUndefined();
  });

  it("a refused creation (4400) stops with the server's reason, and whoever waits for it hears", async () => {
    const conversation = beginNewConversation({ mode: "normal" });
    // As the page waits for it: from the moment the conversation opens.
    const created = creationOf(conversation.id);
    const refusal = {
      type: "frame_error",
      error: { code: "rate_limited", message: "Too many new conversations: try again in 42 s." },
    };
    const states = await connect([4400], {
      id: conversation.id,
      frames: [JSON.stringify(refusal)],
    });
    await vi.waitFor(() => expect(states.at(-1)?.connection).toBe("not-created"), {
      timeout: 5000,
    });
    expect(states.at(-1)?.error).toBe(refusal.error.message);
    await expect(created).rejects.toThrow(/Too many new conversations/);
    await settle(1000);
    expect(server!.connections()).toBe(1);
  });
  it("a new conversation deleted after its socket created it is gone (4404), not 'not created'", async () => {
    const conversation = beginNewConversation({ mode: "normal" });
    const synced = JSON.stringify({ type: "synced", seq: 0, busy: false });
    const states = await connect([4404], { id: conversation.id, frames: [synced] });
    await vi.waitFor(() => expect(states.some((s) => s.connection === "online")).toBe(true));
    await settle(1000);
    expect(server!.connections()).toBe(1);
    expect(states.some((s) => s.connection === "not-created")).toBe(false);
  });

  it("a send the server refuses by name comes back with its text and the files it carried", async () => {
    vi.spyOn(crypto, "randomUUID").mockReturnValueOnce("11111111-1111-4111-8111-111111111111");
    const refusal = {
      type: "frame_error",
      clientMessageId: "11111111-1111-4111-8111-111111111111",
      error: { code: "rate_limited", message: "You have used today's allowance." },
    };
    const states = await connect([1000], { frames: [JSON.stringify(refusal)] });
    live!.send("Compare these", ["art-1", "art-2"]);
    await vi.waitFor(() => expect(states.at(-1)?.refused).not.toBeNull(), { timeout: 5000 });
    expect(states.at(-1)?.refused).toEqual({
      clientMessageId: refusal.clientMessageId,
      text: "Compare these",
      attachments: ["art-1", "art-2"],
    });
  });
});
