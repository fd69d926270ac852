// @vitest-environment jsdom
// A page reloaded offline shows the messages last seen in its conversation, not an empty one:
// the socket's replay needs the network.
import { act } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { TranscriptMessage } from "../../../durable-objects/protocol/transcript";
import {
  CLOSE_ACCESS_REVOKED,
  CLOSE_REASON_ACCESS_REVOKED,
} from "../../../durable-objects/protocol/close-codes";
import type { ServerEvent } from "../../../durable-objects/protocol/wire";
import { App } from "../App";
import { stubAppPage } from "../test-app-page";
import { mountInPage } from "../test-page";
import { memoryStorage, refusingStorage } from "../test-storage";
import {
  CONVERSATIONS,
  MESSAGES,
  forgetTranscripts,
  rememberedTranscript,
  rememberTranscript,
} from "./remembered-transcript";

const message = (n: number, text = `message ${n}`): TranscriptMessage => ({
  id: `m${n}`,
  order: n,
  role: n % 2 ? "user" : "assistant",
  content: [{ type: "text", text }],
  status: "complete",
});

describe("the transcript remembered for a reload offline", () => {
  it("keeps the last messages of the last conversations, per user, until they sign out", () => {
    const store = memoryStorage();
    const many = Array.from({ length: MESSAGES + 5 }, (_, i) => message(i + 1));
    rememberTranscript(store, "u1", "c0", many);
    expect(rememberedTranscript(store, "u1", "c0")?.map((m) => m.id)).toEqual(
      many.slice(-MESSAGES).map((m) => m.id),
    );
    expect(rememberedTranscript(store, "u2", "c0")).toBeNull();

    for (let i = 1; i <= CONVERSATIONS; i++) rememberTranscript(store, "u1", `c${i}`, [message(1)]);
    // The oldest one gave way.
    expect(rememberedTranscript(store, "u1", "c0")).toBeNull();
    expect(rememberedTranscript(store, "u1", `c${CONVERSATIONS}`)).toHaveLength(1);

    forgetTranscripts(store, "u1");
    expect(rememberedTranscript(store, "u1", "c1")).toBeNull();
  });

  it("leaves out an answer still streaming and its thinking timeline", () => {
    const store = memoryStorage();
    const answer: TranscriptMessage = {
      ...message(2),
      activity: { step: 1, maxSteps: 5, callSteps: {}, progress: {}, log: [], approvals: {} },
    };
    rememberTranscript(store, "u1", "c1", [
      message(1),
      answer,
      { ...message(4), status: "streaming" },
    ]);
    expect(rememberedTranscript(store, "u1", "c1")).toEqual([message(1), message(2)]);
  });

  it("holds nothing that is not one (a hand edit, an old format) or where storage is refused", () => {
    const store = memoryStorage();
    store.setItem("thinking-chat:transcripts:u1", JSON.stringify([{ conversationId: "c1" }]));
    expect(rememberedTranscript(store, "u1", "c1")).toBeNull();
    expect(() => rememberTranscript(refusingStorage, "u1", "c1", [message(1)])).not.toThrow();
    expect(rememberedTranscript(refusingStorage, "u1", "c1")).toBeNull();
  });
});

const ME = { id: "u-ada", name: "ada" };
const CONVERSATION = {
  id: "c-tides",
  title: "Tides",
  provider: "anthropic",
  model: "claude-haiku-4-5",
  mode: "normal",
  settings: {},
  createdAt: 1,
  updatedAt: 1,
};
const ANSWER = "The Moon's gravity pulls the oceans into two bulges.";
const QUESTION = {
  id: "q1",
  role: "user" as const,
  content: [{ type: "text" as const, text: "Why are there tides?" }],
  status: "complete" as const,
  seq: 1,
  createdAt: 1,
};
const EVENTS: ServerEvent[] = [
  {
    seq: 1,
    at: 1,
    type: "user_message",
    message: QUESTION,
  },
  {
    seq: 2,
    at: 1,
    type: "turn_started",
    turnId: "t1",
    messageId: "a1",
    order: 2,
    userMessageId: "q1",
    provider: "anthropic",
    model: "claude-haiku-4-5",
  },
  {
    seq: 3,
    at: 1,
    type: "message_completed",
    messageId: "a1",
    status: "complete",
    content: [{ type: "text", text: ANSWER }],
  },
  { seq: 4, at: 1, type: "turn_ended", turnId: "t1", status: "complete" },
];

let online = true;
/** Set: the socket opens and closes at once with this code and reason (a former member's, say). */
let closeWith: { code: number; reason: string } | null = null;
/** The conversation's socket: online it replays the events and says it is synced; offline it fails. */
class ReplaySocket extends EventTarget {
  readyState = 0;
  constructor() {
    super();
    setTimeout(() => {
      if (!online) {
        this.readyState = 3;
        return this.dispatchEvent(new CloseEvent("close", { code: 1006 }));
      }
      this.readyState = 1;
      this.dispatchEvent(new Event("open"));
      if (closeWith) {
        this.readyState = 3;
        return this.dispatchEvent(new CloseEvent("close", closeWith));
      }
      for (const frame of [
        { type: "replay", events: EVENTS },
        { type: "synced", seq: EVENTS.length, busy: false },
      ])
        this.dispatchEvent(new MessageEvent("message", { data: JSON.stringify(frame) }));
    }, 0);
  }
  send() {}
  close() {}
}

const json = (body: unknown) => Response.json(body);
async function server(path: string, init?: RequestInit): Promise<Response> {
  const conv = `/api/conversations/${CONVERSATION.id}`;
  if (path === "/api/session")
    return init?.method === "DELETE" ? new Response(null, { status: 204 }) : json({ user: ME });
  if (path === "/api/providers") return json({ providers: [] });
  if (path === conv) return json(CONVERSATION);
  if (path === `${conv}/members`) return json({ role: "owner", owner: ME, members: [] });
  if (path.startsWith("/api/conversations?"))
    return json({ items: [CONVERSATION], nextCursor: null });
  return json({ items: [] });
}

beforeEach(() => {
  online = true;
  closeWith = null;
  EVENTS.length = 4;
  stubAppPage({
    me: ME,
    conversationId: CONVERSATION.id,
    socket: ReplaySocket,
    fetch: (path, init) =>
      online ? server(path, init) : Promise.reject(new TypeError("Failed to fetch")),
    online: () => online,
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const settle = () => act(() => new Promise((r) => setTimeout(r, 30)));
async function until(shown: () => boolean | undefined) {
  for (let i = 0; i < 100 && !shown(); i++) await settle();
  expect(shown()).toBe(true);
}
async function load() {
  const page = mountInPage();
  await act(async () => page.root.render(<App />));
  return page;
}
const messagesIn = (host: HTMLElement) => host.querySelector("[data-testid=messages]")?.textContent;

it("a conversation seen online shows its last answer when the page is reloaded offline, and not after sign-out", async () => {
  const first = await load();
  await until(() => messagesIn(first.host)?.includes(ANSWER));
  act(() => first.root.unmount());

  online = false;
  const { host, root } = await load();
  await until(() => host.querySelector("[data-testid=offline]") !== null);
  expect(messagesIn(host)).toContain("Why are there tides?");
  expect(messagesIn(host)).toContain(ANSWER);

  // Back online, the socket's catch-up replaces it (with what was said meanwhile elsewhere).
  EVENTS.push({
    seq: 5,
    at: 2,
    type: "user_message",
    message: { ...QUESTION, id: "q2", content: [{ type: "text", text: "And spring tides?" }] },
  });
  online = true;
  await act(async () => window.dispatchEvent(new Event("online")));
  await until(() => messagesIn(host)?.includes("And spring tides?"));
  expect(host.querySelector("[data-testid=offline]")).toBeNull();
  act(() => root.unmount());

  // Signed out (online), the next user of the browser finds none of it.
  online = true;
  const again = await load();
  await until(() => messagesIn(again.host)?.includes(ANSWER));
  const signOut = [...again.host.querySelectorAll("button")].find(
    (b) => b.textContent?.trim() === "Sign out",
  )!;
  await act(async () => signOut.click());
  await until(() => again.host.querySelector("#message-box") === null);
  expect(localStorage.getItem(`thinking-chat:transcripts:${ME.id}`)).toBeNull();
  act(() => again.root.unmount());
});

it("a conversation the user may no longer read shows none of what was kept of it, and forgets it", async () => {
  const kept = () => localStorage.getItem(`thinking-chat:transcripts:${ME.id}`) ?? "";
  const first = await load();
  await until(() => messagesIn(first.host)?.includes(ANSWER));
  act(() => first.root.unmount());
  expect(kept()).toContain(ANSWER);

  // The owner stopped sharing it meanwhile: the socket says so as it opens.
  closeWith = { code: CLOSE_ACCESS_REVOKED, reason: CLOSE_REASON_ACCESS_REVOKED };
  const { host, root } = await load();
  await until(() => host.querySelector("[data-testid=access-revoked]") !== null);
  expect(messagesIn(host) ?? "").not.toContain(ANSWER);
  expect(kept()).not.toContain(ANSWER);
  act(() => root.unmount());
});
