// Catching up on a long conversation: the client folds the replayed events together and shows
// them at once, and says it is online only once everything replayed is in the transcript.
import { afterEach, expect, it, vi } from "vitest";
import { conversationFrames } from "../../../tests/e2e/replay-conversation";
import { type LiveState, LiveConversation } from "./live-conversation";
import { type ReplayingSocketServer, startReplayingSocketServer } from "./replaying-socket-server";

let server: ReplayingSocketServer | undefined;
let live: LiveConversation | undefined;
afterEach(async () => {
  live?.close();
  await server?.stop();
  vi.unstubAllGlobals();
});

it("shows a catch-up of 2,500 events in a few updates, all of it before it says it is online", async () => {
  // 1,000 messages: each question and answer is five events (question, turn, text, end).
  server = await startReplayingSocketServer(conversationFrames(1_000));
  vi.stubGlobal("location", { protocol: "http:", host: server.host });
  vi.stubGlobal("addEventListener", () => undefined);
  vi.stubGlobal("removeEventListener", () => undefined);
  const states: LiveState[] = [];
  live = new LiveConversation("c1", (s) => states.push(s));

  await vi.waitFor(() => expect(states.at(-1)?.connection).toBe("online"), { timeout: 20_000 });
  const online = states.find((s) => s.connection === "online")!;
  expect(online.transcript.lastSeq).toBe(2_500);
  expect(online.transcript.messages).toHaveLength(1_000);
  expect(online.transcript.messages.at(-1)).toMatchObject({
    role: "assistant",
    status: "complete",
    content: [{ type: "text", text: expect.stringContaining("A short answer") }],
  });
  // One transcript per event would be 2,500 renders of a growing list.
  const shown = new Set(states.map((s) => s.transcript));
  expect(shown.size).toBeLessThanOrEqual(5);
});

it("folds a catch-up sent as `replay` frames into the same transcript as one frame per event", async () => {
  const frames = conversationFrames(400);
  const synced = frames.at(-1)!;
  const events = frames.slice(0, -1);
  // The server's pages: up to 1,000 events a frame.
  const pages: string[] = [];
  for (let i = 0; i < events.length; i += 1_000)
    pages.push(`{"type":"replay","events":[${events.slice(i, i + 1_000).join(",")}]}`);
  const caughtUp = async (sent: string[]) => {
    server = await startReplayingSocketServer(sent);
    vi.stubGlobal("location", { protocol: "http:", host: server.host });
    vi.stubGlobal("addEventListener", () => undefined);
    vi.stubGlobal("removeEventListener", () => undefined);
    const states: LiveState[] = [];
    live = new LiveConversation("c1", (s) => states.push(s));
    await vi.waitFor(() => expect(states.at(-1)?.connection).toBe("online"), { timeout: 20_000 });
    const { transcript } = states.find((s) => s.connection === "online")!;
    live.close();
    await server.stop();
    server = undefined;
    return transcript;
  };
  const batched = await caughtUp([...pages, synced]);
  expect(batched.lastSeq).toBe(1_000);
  expect(batched.messages).toHaveLength(400);
  expect(batched).toEqual(await caughtUp(frames));
});

it("asks for its replay in the handshake, and a reconnect asks only for what follows what it has", async () => {
  // Ten messages (25 events), then the server drops the socket.
  server = await startReplayingSocketServer(conversationFrames(10), { thenClose: 1011 });
  vi.stubGlobal("location", { protocol: "http:", host: server.host });
  vi.stubGlobal("addEventListener", () => undefined);
  vi.stubGlobal("removeEventListener", () => undefined);
  live = new LiveConversation("c1", () => undefined);

  await vi.waitFor(() => expect(server!.urls).toHaveLength(2), { timeout: 5_000 });
  const [first, second] = server.urls.map((u) => new URL(u, "http://x"));
  expect(first!.pathname).toBe("/api/conversations/c1/ws");
  expect(Object.fromEntries(first!.searchParams)).toEqual({
    resume: "0",
    compact: "1",
    batch: "1",
    presence: "1",
  });
  expect(second!.searchParams.get("resume")).toBe("25");
});
