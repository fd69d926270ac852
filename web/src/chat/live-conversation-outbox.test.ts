// Messages sent while offline outlive the page: kept per user and conversation, shown waiting
// after a reload, resent once when the socket is back, and forgotten on ack or refusal.
import { afterEach, describe, expect, it, vi } from "vitest";
import { type AnsweringSocketServer, startAnsweringSocketServer } from "./answering-socket-server";
import { type LiveState, LiveConversation } from "./live-conversation";
import { Outbox } from "./outbox";
import { eraseOutboxes } from "./outbox-keys";
import { memoryStorage } from "../test-storage";

let server: AnsweringSocketServer | undefined;
const pages: LiveConversation[] = [];
/** The window's listeners (online, offline, storage) of every page, in the order added. */
let listeners: { type: string; fn: (e: unknown) => void }[] = [];
afterEach(async () => {
  for (const page of pages.splice(0)) page.close();
  await server?.stop();
  vi.unstubAllGlobals();
});

/** Acks every send, except one whose text starts with "refuse", which is refused by name. */
const ackOrRefuse = (frame: unknown) => {
  const f = frame as { type: string; clientMessageId: string; text: string };
  if (f.type !== "send") return undefined;
  if (f.text.startsWith("refuse"))
    return {
      type: "frame_error",
      clientMessageId: f.clientMessageId,
      error: { code: "rate_limited", message: "You have used today's allowance." },
    };
  return {
    type: "ack",
    clientMessageId: f.clientMessageId,
    messageId: "m1",
    seq: 1,
    duplicate: false,
    queued: false,
  };
};

async function startServer(up: boolean) {
  server = await startAnsweringSocketServer(ackOrRefuse);
  server.setUp(up);
  vi.stubGlobal("location", { protocol: "http:", host: server.host });
  listeners = [];
  vi.stubGlobal("addEventListener", (type: string, fn: (e: unknown) => void) =>
    listeners.push({ type, fn }),
  );
  vi.stubGlobal("removeEventListener", (type: string, fn: (e: unknown) => void) => {
    listeners = listeners.filter((l) => l.type !== type || l.fn !== fn);
  });
}

/** Opens conversation c1 as a page of `user` would, recording its states. */
function openPage(
  store: ReturnType<typeof memoryStorage>,
  user: string,
  stillSignedIn = () => true,
) {
  const states: LiveState[] = [];
  const page = new LiveConversation(
    "c1",
    (s) => states.push(s),
    new Outbox(store, user, "c1"),
    stillSignedIn,
  );
  pages.push(page);
  return { page, states };
}

/** The tabs opened after the writer have each failed three times: their next tries are 2 s away. */
const bothBackingOff = () =>
  vi.waitFor(() => expect(server!.dropped()).toBeGreaterThanOrEqual(1 + 6), { timeout: 5000 });

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const sends = () => server!.received().filter((r) => (r.frame as { type: string }).type === "send");

describe("an unacknowledged message outlives the page", () => {
  it("written offline, it waits after a reload and goes once when the socket is back", async () => {
    await startServer(false);
    const store = memoryStorage();
    const first = openPage(store, "alice");
    first.page.send("Summarise the attached report", ["art-1"]);
    await vi.waitFor(() => expect(first.states.at(-1)?.connection).toBe("offline"));
    first.page.close(); // the reload

    const second = openPage(store, "alice");
    // The waiting line shows at once, before any connection.
    expect(second.states.at(-1)?.pending).toEqual([
      { clientMessageId: expect.any(String), text: "Summarise the attached report", files: 1 },
    ]);
    server!.setUp(true);
    await vi.waitFor(() => expect(second.states.at(-1)?.pending).toEqual([]), { timeout: 5000 });
    expect(sends().map((r) => r.frame)).toEqual([
      {
        type: "send",
        clientMessageId: second.states[0]!.pending[0]!.clientMessageId,
        text: "Summarise the attached report",
        attachments: ["art-1"],
      },
    ]);
    // Acknowledged: a third load has nothing waiting, and sends nothing again.
    const third = openPage(store, "alice");
    expect(third.states.at(-1)?.pending).toEqual([]);
    await vi.waitFor(() => expect(third.states.at(-1)?.connection).toBe("online"), {
      timeout: 5000,
    });
    expect(sends()).toHaveLength(1);
  });

  it("refused after a reload, it comes back for the message box and is not kept", async () => {
    await startServer(false);
    const store = memoryStorage();
    const first = openPage(store, "alice");
    first.page.send("refuse this one", ["art-2"]);
    first.page.close();
    server!.setUp(true);
    const second = openPage(store, "alice");
    await vi.waitFor(() => expect(second.states.at(-1)?.refused).not.toBeNull(), {
      timeout: 5000,
    });
    expect(second.states.at(-1)?.refused).toMatchObject({
      text: "refuse this one",
      attachments: ["art-2"],
    });
    expect(second.states.at(-1)?.pending).toEqual([]);
    expect(new Outbox(store, "alice", "c1").read()).toEqual([]);
  });

  it("is never sent by another user signed in on this browser, and a sign-out erases it", async () => {
    await startServer(false);
    const store = memoryStorage();
    const alice = openPage(store, "alice");
    alice.page.send("Alice's private question");
    alice.page.close();
    server!.setUp(true);
    const bob = openPage(store, "bob");
    expect(bob.states.at(-1)?.pending).toEqual([]);
    await vi.waitFor(() => expect(bob.states.at(-1)?.connection).toBe("online"), {
      timeout: 5000,
    });
    bob.page.send("Bob's question");
    await vi.waitFor(() => expect(bob.states.at(-1)?.pending).toEqual([]), { timeout: 5000 });
    expect(sends().map((r) => (r.frame as { text: string }).text)).toEqual(["Bob's question"]);
    // Alice signs out: nothing of hers is left for the next person at this browser.
    expect(new Outbox(store, "alice", "c1").read()).toHaveLength(1);
    eraseOutboxes(store, "alice");
    expect([...store.items.keys()].filter((k) => k.includes("alice"))).toEqual([]);
  });

  it("a tab still open after its user signed out in another tab does not send their message", async () => {
    await startServer(false);
    const store = memoryStorage();
    const tab = openPage(store, "alice");
    tab.page.send("Alice's draft to the board");
    await vi.waitFor(() => expect(tab.states.at(-1)?.connection).toBe("offline"));
    // Signed out in the other tab (someone else may sign in there next); no storage event here.
    eraseOutboxes(store, "alice");
    server!.setUp(true);
    listeners.find((l) => l.type === "online")!.fn(new Event("online"));
    await vi.waitFor(() => expect(tab.states.at(-1)?.connection).toBe("online"), {
      timeout: 5000,
    });
    expect(tab.states.at(-1)?.pending).toEqual([]);
    expect(sends()).toEqual([]);
  });

  it("a tab whose browser another account signed in to meanwhile sends nothing, and says why", async () => {
    await startServer(false);
    const store = memoryStorage();
    let signedIn = "alice";
    const tab = openPage(store, "alice", () => signedIn === "alice");
    tab.page.send("Alice's draft to the board");
    await vi.waitFor(() => expect(tab.states.at(-1)?.connection).toBe("offline"));
    signedIn = "bob"; // in another tab, with a start link: no sign-out erased Alice's outbox
    server!.setUp(true);
    listeners.find((l) => l.type === "online")!.fn(new Event("online"));
    await vi.waitFor(() => expect(tab.states.at(-1)?.connection).toBe("online"), {
      timeout: 5000,
    });
    expect(tab.states.at(-1)?.error).toMatch(/Another account has signed in on this browser/);
    tab.page.send("and one more");
    await settle(200);
    expect(sends()).toEqual([]);
    // Still Alice's, for when she is back.
    expect(new Outbox(store, "alice", "c1").read()).toHaveLength(2);
  });

  it("two tabs reloaded while it waited: the first back sends it, the other does not again", async () => {
    await startServer(false);
    const store = memoryStorage();
    const writer = openPage(store, "alice");
    writer.page.send("Only once, please");
    await vi.waitFor(() => expect(writer.states.at(-1)?.connection).toBe("offline"));
    writer.page.close();
    const tabA = openPage(store, "alice");
    const tabB = openPage(store, "alice");
    expect(tabB.states.at(-1)?.pending).toHaveLength(1);
    await bothBackingOff();
    server!.setUp(true);
    // The network is back for tab A first (its "online" listener; B waits for its backoff).
    const onlineA = listeners.filter((l) => l.type === "online")[0]!;
    onlineA.fn(new Event("online"));
    await vi.waitFor(() => expect(tabA.states.at(-1)?.pending).toEqual([]), { timeout: 5000 });
    // The browser tells tab B its outbox changed: its waiting line drops the message.
    for (const l of listeners.filter((l) => l.type === "storage"))
      l.fn({ key: new Outbox(store, "alice", "c1").key });
    expect(tabB.states.at(-1)?.pending).toEqual([]);
    await vi.waitFor(() => expect(server!.connections()).toBe(2), { timeout: 5000 });
    await vi.waitFor(() => expect(tabB.states.at(-1)?.connection).toBe("online"), {
      timeout: 5000,
    });
    expect(sends()).toHaveLength(1);
  });

  it("a tab that missed the other's news checks the outbox before resending", async () => {
    await startServer(false);
    const store = memoryStorage();
    const writer = openPage(store, "alice");
    writer.page.send("Only once, please");
    await vi.waitFor(() => expect(writer.states.at(-1)?.connection).toBe("offline"));
    writer.page.close();
    const tabA = openPage(store, "alice");
    const tabB = openPage(store, "alice");
    await bothBackingOff();
    server!.setUp(true);
    listeners.filter((l) => l.type === "online")[0]!.fn(new Event("online"));
    await vi.waitFor(() => expect(tabA.states.at(-1)?.pending).toEqual([]), { timeout: 5000 });
    // No storage event reaches tab B (a browser may coalesce them): its reconnect still reads.
    await vi.waitFor(() => expect(tabB.states.at(-1)?.connection).toBe("online"), {
      timeout: 5000,
    });
    expect(tabB.states.at(-1)?.pending).toEqual([]);
    expect(sends()).toHaveLength(1);
  });
});
