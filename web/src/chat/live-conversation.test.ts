// The live connection against a real WebSocket server: it reconnects after failures, and stops
// for good when the server says the credential was revoked (4401) or the conversation is gone.
import { afterEach, describe, expect, it, vi } from "vitest";
import { type ClosingSocketServer, startClosingSocketServer } from "./closing-socket-server";
import { type LiveState, LiveConversation } from "./live-conversation";

let server: ClosingSocketServer | undefined;
let live: LiveConversation | undefined;
afterEach(async () => {
  live?.close();
  await server?.stop();
  vi.unstubAllGlobals();
});

/** Connects as the page at `host` would, and records every state it goes through. */
async function connect(closeCodes: number[]): Promise<LiveState[]> {
  server = await startClosingSocketServer(closeCodes);
  vi.stubGlobal("location", { protocol: "http:", host: server.host });
  // The browser's online/offline events: nothing fires them here.
  vi.stubGlobal("addEventListener", () => undefined);
  vi.stubGlobal("removeEventListener", () => undefined);
  const states: LiveState[] = [];
  live = new LiveConversation("c1", (s) => states.push(s));
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

  it("stops when the conversation is gone (4404), as before", async () => {
    const states = await connect([4404]);
    await vi.waitFor(() => expect(server!.connections()).toBe(1));
    await settle(1000);
    expect(server!.connections()).toBe(1);
    expect(states.every((s) => s.connection !== "signed-out")).toBe(true);
  });
});
