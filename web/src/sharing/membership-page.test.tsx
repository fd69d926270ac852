// @vitest-environment jsdom
// A shared conversation's page as its member sees it: no owner-only control while their role
// loads or when it cannot be read, and Leave with a confirmation, after which the conversation
// goes from "Shared with you" and its page says they left. Reloaded offline, the role last known
// opens the message box (the message waits), until the server's word replaces it.
import { createRoot, type Root } from "react-dom/client";
import { afterEach, beforeAll, beforeEach, describe, expect, vi } from "vitest";
import { App } from "../App";
import { artifact } from "../artifacts/test-artifact";
import { outboxKey } from "../chat/outbox-keys";
import { stubAppPage } from "../test-app-page";
import { act, actsFinished, it } from "../test-steps";
import { rememberedRole, rememberRole } from "./remembered-role";

beforeAll(() => {
  // jsdom has no modal dialogs.
  const proto = HTMLDialogElement.prototype as { showModal?: () => void; close?: () => void };
  proto.showModal ??= function (this: HTMLDialogElement) {
    this.open = true;
  };
  proto.close ??= function (this: HTMLDialogElement) {
    this.open = false;
  };
});

// The page's lazily loaded parts, imported before the tests: the first import() of each is
// transformed then (a third of a second here, seconds on a loaded machine), which made the first
// test alone slow enough to time out. Each test still waits for them to show.
beforeAll(async () => {
  await Promise.all([
    import("../chat/ChatView"),
    import("../artifacts/ArtifactPane"),
    import("../settings/SettingsPanel"),
    import("./ShareDialog"),
  ]);
}, 60_000);

const ME = { id: "u-bo", name: "bo" };
const OWNER = { id: "u-ada", name: "ada" };
const NOTES = artifact({ id: "a-notes", conversationId: "c-shared", title: "Packing list" });
const CONVERSATION = {
  id: "c-shared",
  title: "Trip plans",
  provider: "anthropic",
  model: "claude-haiku-4-5",
  mode: "normal",
  settings: {},
  createdAt: 1,
  updatedAt: 1,
};

const json = (status: number, body?: unknown) =>
  body === undefined
    ? new Response(null, { status })
    : new Response(JSON.stringify(body), {
        status,
        headers: { "content-type": "application/json" },
      });

/** What GET /members answers, one call at a time (a pending promise: still loading). */
let members: Array<() => Promise<Response>>;
/** Whether the user is still a member (DELETE of their own membership ends it). */
let shared: boolean;
/** Whether the conversation is the user's own (in their list) rather than shared with them. */
let own: boolean;
let requests: string[];

/** The sockets the page opened, newest last. */
let sockets: QuietSocket[] = [];
class QuietSocket extends EventTarget {
  constructor() {
    super();
    sockets.push(this);
  }
  readyState = 0;
  send() {}
  close() {}
}

let root: Root;
let host: HTMLElement;

beforeEach(() => {
  requests = [];
  sockets = [];
  shared = true;
  own = false;
  members = [];
  stubAppPage({
    me: ME,
    conversationId: CONVERSATION.id,
    socket: QuietSocket,
    fetch: async (path, init) => {
      const method = init?.method ?? "GET";
      requests.push(`${method} ${path}`);
      const conv = `/api/conversations/${CONVERSATION.id}`;
      if (path === "/api/session") return json(200, { user: ME });
      if (path === "/api/providers") return json(200, { providers: [] });
      if (path === "/api/shared-with-me")
        return json(200, {
          items:
            shared && !own
              ? [{ conversation: CONVERSATION, role: "participant", owner: OWNER }]
              : [],
        });
      if (path === `${conv}/members` && method === "GET") {
        const next = members.shift();
        if (!next) throw new Error("unexpected members request");
        return next();
      }
      if (path === `${conv}/members/${ME.id}` && method === "DELETE") {
        shared = false;
        return json(204);
      }
      if (path === `${conv}/artifacts`) return json(200, { items: [NOTES] });
      if (path === `/api/artifacts/${NOTES.id}`) return json(200, NOTES);
      if (path === conv)
        return shared
          ? json(200, CONVERSATION)
          : json(404, { error: { code: "not_found", message: "Conversation not found." } });
      if (path.startsWith("/api/conversations?") || path === "/api/conversations")
        return json(200, { items: own ? [CONVERSATION] : [], nextCursor: null });
      return json(200, { items: [] });
    },
  });
  host = document.createElement("div");
  document.body.appendChild(host);
  root = createRoot(host);
});
afterEach(async () => {
  // A test that timed out may still be inside an act(); the next one starts after it.
  await actsFinished();
  await act(async () => root.unmount());
  host.remove();
  vi.unstubAllGlobals();
});

const settle = () => act(() => new Promise((r) => setTimeout(r, 30)));
/** Waits for what a lazily loaded part shows. */
async function until(shown: () => boolean | undefined) {
  for (let i = 0; i < 100 && !shown(); i++) await settle();
  expect(shown()).toBe(true);
}
const button = (name: string) =>
  [...host.querySelectorAll("button")].find((b) => b.textContent?.trim() === name);
const asParticipant = () =>
  Promise.resolve(json(200, { role: "participant", owner: OWNER, members: [] }));
const asOwner = () =>
  Promise.resolve(
    json(200, {
      role: "owner",
      owner: ME,
      members: [{ user: OWNER, role: "participant", addedAt: 1 }],
    }),
  );

async function openPage() {
  await act(async () => root.render(<App />));
  await settle();
  expect(host.querySelector("h1")?.textContent).toBe(CONVERSATION.title);
}

/** The page's socket opens and says it has caught up (the usage is read only after that). */
async function catchUp() {
  await until(() => sockets.length > 0);
  const socket = sockets.at(-1)!;
  await act(async () => {
    socket.dispatchEvent(new Event("open"));
    const synced = JSON.stringify({ type: "synced", seq: 0, busy: false });
    socket.dispatchEvent(new MessageEvent("message", { data: synced }));
  });
  await settle();
}

it("shows no Settings while the user's role loads, and only to its owner once known", async () => {
  let answer!: (r: Response) => void;
  members.push(() => new Promise<Response>((r) => (answer = r)));
  await openPage();
  expect(button("Settings")).toBeUndefined();
  expect(host.querySelector("[data-testid=share-button]")).toBeNull();
  // Nor the owner's MCP resources in the message box.
  const attach = () =>
    host.querySelector<HTMLButtonElement>("button[title='Attach a resource of your MCP servers']");
  await until(() => button("Attach") !== undefined);
  expect(button("Attach")!.disabled).toBe(true);
  expect(attach()).toBeNull();
  // Nor, in the artifact pane, Pin or Delete.
  await act(async () => button("Artifacts")!.click());
  const listed = () =>
    [...host.querySelectorAll<HTMLButtonElement>(".artifact-pane button")].find((b) =>
      b.textContent?.includes("Packing list"),
    );
  await until(() => listed() !== undefined);
  await act(async () => listed()!.click());
  await until(() => host.querySelector(".artifact-pane")?.textContent?.includes("Download"));
  expect(button("Pin")).toBeUndefined();
  expect(button("Delete")).toBeUndefined();

  await act(async () => answer(await asParticipant()));
  await settle();
  expect(host.querySelector("[data-testid=shared-by]")?.textContent).toContain(
    "you are a participant",
  );
  expect(button("Settings")).toBeUndefined();
});

it("when the role cannot be read, says so and shows owner-only controls only after a retry finds the owner", async () => {
  members.push(() =>
    Promise.resolve(json(503, { error: { code: "unavailable", message: "Try again soon." } })),
  );
  members.push(asOwner);
  await openPage();
  const failed = host.querySelector("[data-testid=membership-failed]");
  expect(failed?.textContent).toContain("did not load");
  expect(button("Settings")).toBeUndefined();

  await act(async () => button("Try again")!.click());
  await settle();
  expect(host.querySelector("[data-testid=membership-failed]")).toBeNull();
  expect(button("Settings")).toBeDefined();
  expect(host.querySelector("[data-testid=share-button]")?.textContent).toBe("Share (1)");
});

it("lets a member leave after confirming: the list drops it and the page says they left", async () => {
  members.push(asParticipant);
  await openPage();
  const sharedList = () => host.querySelector("[data-testid=shared-with-me]");
  expect(sharedList()?.textContent).toContain(CONVERSATION.title);

  await act(async () => button("Leave")!.click());
  const dialog = host.querySelector("dialog");
  expect(dialog?.textContent).toContain("Leave this conversation?");
  expect(dialog?.textContent).toContain("Only ada can share it with you again");
  // Cancel keeps everything as it was.
  await act(async () => button("Cancel")!.click());
  expect(host.querySelector("dialog")).toBeNull();
  expect(requests.some((r) => r.startsWith("DELETE"))).toBe(false);

  await act(async () => button("Leave")!.click());
  await act(async () => button("Leave conversation")!.click());
  await settle();
  expect(requests).toContain(`DELETE /api/conversations/${CONVERSATION.id}/members/${ME.id}`);
  expect(host.querySelector("dialog")).toBeNull();
  expect(host.querySelector("[data-testid=left-conversation]")?.textContent).toContain(
    "You left “Trip plans”",
  );
  expect(sharedList()).toBeNull();
  expect(button("Leave")).toBeUndefined();
  expect(host.textContent).not.toContain("stopped sharing");
});

it("when the member leaves in another tab, this one says they left (not that the owner stopped sharing)", async () => {
  members.push(asParticipant);
  await openPage();
  const sharedList = () => host.querySelector("[data-testid=shared-with-me]");
  expect(sharedList()?.textContent).toContain(CONVERSATION.title);
  await until(() => sockets.length > 0);

  // The other tab's Leave: the conversation closes this tab's socket, saying the user left.
  shared = false;
  await act(async () =>
    sockets.at(-1)!.dispatchEvent(new CloseEvent("close", { code: 4403, reason: "left" })),
  );
  await settle();
  expect(host.querySelector("[data-testid=left-conversation]")?.textContent).toContain(
    "You left “Trip plans”",
  );
  expect(host.textContent).not.toContain("stopped sharing");
  expect(button("Leave")).toBeUndefined();
  expect(sharedList()).toBeNull();
});

it("keeps the conversation open and says why when leaving fails", async () => {
  members.push(asParticipant);
  await openPage();
  const fetchMock = vi.mocked(fetch);
  const usual = fetchMock.getMockImplementation()!;
  fetchMock.mockImplementation(async (path, init) =>
    init?.method === "DELETE"
      ? json(503, { error: { code: "unavailable", message: "The server is busy; try again." } })
      : usual(path, init),
  );
  await act(async () => button("Leave")!.click());
  await act(async () => button("Leave conversation")!.click());
  await settle();
  expect(host.querySelector("dialog [role=alert]")?.textContent).toContain("busy");
  expect(host.querySelector("[data-testid=left-conversation]")).toBeNull();
  expect(host.querySelector("[data-testid=shared-with-me]")?.textContent).toContain("Trip plans");
});

it("keeps the message box closed and asks for no usage while the role loads; a viewer then reads only", async () => {
  let answer!: (r: Response) => void;
  members.push(() => new Promise<Response>((r) => (answer = r)));
  await openPage();
  const box = () => host.querySelector<HTMLTextAreaElement>("#message-box");
  await until(() => box() !== null);
  // A viewer's send would be refused, and their usage too: neither is tried before the role.
  expect(box()!.disabled).toBe(true);
  expect(button("Send")!.disabled).toBe(true);
  expect(host.querySelector("#composer-hint")?.textContent).toContain("Loading your role");
  await catchUp();
  const usageAsked = () => requests.some((r) => r.endsWith(`/${CONVERSATION.id}/usage`));
  expect(usageAsked()).toBe(false);

  await act(async () => answer(json(200, { role: "viewer", owner: OWNER, members: [] })));
  await settle();
  expect(box()).toBeNull();
  expect(host.querySelector("[data-testid=viewer-notice]")?.textContent).toContain(
    "You are a viewer",
  );
  expect(usageAsked()).toBe(false);
});

it("opens the message box and the cost meter's request once the role says the user may write", async () => {
  members.push(asParticipant);
  await openPage();
  const box = () => host.querySelector<HTMLTextAreaElement>("#message-box");
  await until(() => box() !== null);
  expect(box()!.disabled).toBe(false);
  expect(host.querySelector("#composer-hint")?.textContent).not.toContain("Loading your role");
  await catchUp();
  expect(requests).toContain(`GET /api/conversations/${CONVERSATION.id}/usage`);
});

it("opens the box at once for a conversation from the user's own list, before its members load", async () => {
  own = true;
  members.push(() => new Promise<Response>(() => undefined));
  history.replaceState(null, "", `/?c=${CONVERSATION.id}`);
  await openPage();
  const box = () => host.querySelector<HTMLTextAreaElement>("#message-box");
  await until(() => box()?.disabled === false);
  expect(host.querySelector("#composer-hint")?.textContent ?? "").not.toContain(
    "Loading your role",
  );
  expect(requests).toContain(`GET /api/conversations/${CONVERSATION.id}/members`);
});

describe("reloaded offline", () => {
  const offline = () =>
    vi.mocked(fetch).mockImplementation(async () => {
      throw new TypeError("Failed to fetch");
    });
  const box = () => host.querySelector<HTMLTextAreaElement>("#message-box");

  async function typeAndSend(text: string) {
    const el = box()!;
    const setter = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, "value")!.set!;
    await act(async () => {
      setter.call(el, text);
      el.dispatchEvent(new Event("input", { bubbles: true }));
    });
    await act(async () => button("Send")!.click());
    await settle();
  }

  it("a conversation the user could write to opens its box: the message waits, and the server's role wins once back", async () => {
    rememberRole(localStorage, ME.id, CONVERSATION.id, "participant");
    const online = vi.mocked(fetch).getMockImplementation()!;
    offline();
    await act(async () => root.render(<App />));
    // The conversation, not the sign-in page.
    await until(() => box() !== null);
    expect(button("Sign in")).toBeUndefined();
    expect(box()!.disabled).toBe(false);
    expect(host.querySelector("#composer-hint")?.textContent).not.toContain("Loading your role");
    await typeAndSend("Written on the train");
    expect(host.querySelector("[aria-label='Waiting to be sent']")?.textContent).toContain(
      "Written on the train",
    );
    expect(localStorage.getItem(outboxKey(ME.id, CONVERSATION.id))).toContain(
      "Written on the train",
    );

    // Back online: the session is confirmed, the members say the owner made them a viewer.
    vi.mocked(fetch).mockImplementation(online);
    members.push(() => Promise.resolve(json(200, { role: "viewer", owner: OWNER, members: [] })));
    await act(async () => window.dispatchEvent(new Event("online")));
    await until(() => host.querySelector("[data-testid=viewer-notice]") !== null);
    expect(box()).toBeNull();
    expect(rememberedRole(localStorage, ME.id, CONVERSATION.id)).toBe("viewer");
  });

  it("'Shared with you' lists what it last loaded, and the conversation its title", async () => {
    members.push(asParticipant);
    await openPage();
    const shared = () => host.querySelector("[data-testid=shared-with-me]")?.textContent;
    await until(() => shared()?.includes(CONVERSATION.title));
    await act(async () => root.unmount());
    root = createRoot(host);
    offline();
    await act(async () => root.render(<App />));
    await until(() => shared()?.includes(CONVERSATION.title));
    await until(() => host.querySelector("h1")?.textContent === CONVERSATION.title);
  });

  it("without a role known from before, the box waits and says why (never the sign-in page)", async () => {
    offline();
    await act(async () => root.render(<App />));
    await until(() => box() !== null);
    expect(button("Sign in")).toBeUndefined();
    expect(box()!.disabled).toBe(true);
    expect(host.querySelector("#composer-hint")?.textContent).toContain("Loading your role");
  });

  it("a role remembered as viewer keeps the box closed", async () => {
    rememberRole(localStorage, ME.id, CONVERSATION.id, "viewer");
    offline();
    await act(async () => root.render(<App />));
    await until(() => box() !== null);
    expect(box()!.disabled).toBe(true);
  });
});

it("opening a shared conversation right after one's own does not take the owner's role for it", async () => {
  const MINE = { ...CONVERSATION, id: "c-mine", title: "My notes" };
  const usual = vi.mocked(fetch).getMockImplementation()!;
  vi.mocked(fetch).mockImplementation(async (path, init) => {
    const p = String(path);
    if (p.startsWith("/api/conversations?")) return json(200, { items: [MINE], nextCursor: null });
    if (p === `/api/conversations/${MINE.id}`) return json(200, MINE);
    if (p === `/api/conversations/${MINE.id}/members`)
      return json(200, { role: "owner", owner: ME, members: [] });
    return usual(path, init);
  });
  // The shared one's members never answer: only its socket could tell the role.
  members.push(() => new Promise<Response>(() => undefined));
  history.replaceState(null, "", `/?c=${MINE.id}`);
  await act(async () => root.render(<App />));
  const box = () => host.querySelector<HTMLTextAreaElement>("#message-box");
  await until(() => box()?.disabled === false);

  const shared = [...host.querySelectorAll("[data-testid=shared-with-me] button")].find((b) =>
    b.textContent?.includes(CONVERSATION.title),
  );
  await act(async () => (shared as HTMLButtonElement).click());
  await until(() => host.querySelector("h1")?.textContent === CONVERSATION.title);
  await settle();
  expect(box()!.disabled).toBe(true);
  // A reload offline would go by what was remembered for it: nothing, not "owner".
  expect(rememberedRole(localStorage, ME.id, CONVERSATION.id)).toBeNull();
  expect(rememberedRole(localStorage, ME.id, MINE.id)).toBe("owner");
});

it("messages waiting when the owner stops sharing are shown as not sent, whole, and never sent later", async () => {
  rememberRole(localStorage, ME.id, CONVERSATION.id, "participant");
  const online = vi.mocked(fetch).getMockImplementation()!;
  vi.mocked(fetch).mockImplementation(async () => {
    throw new TypeError("Failed to fetch");
  });
  await act(async () => root.render(<App />));
  const box = () => host.querySelector<HTMLTextAreaElement>("#message-box");
  await until(() => box()?.disabled === false);
  const long = `Please compare these two plans in detail: ${"the first one, then the second; ".repeat(4)}`;
  const setter = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, "value")!.set!;
  await act(async () => {
    setter.call(box()!, long);
    box()!.dispatchEvent(new Event("input", { bubbles: true }));
  });
  await act(async () => button("Send")!.click());
  await settle();
  expect(localStorage.getItem(outboxKey(ME.id, CONVERSATION.id))).toContain("compare these");

  // Back online, the conversation's socket closes: the owner no longer shares it with them.
  vi.mocked(fetch).mockImplementation(online);
  await act(async () =>
    sockets
      .at(-1)!
      .dispatchEvent(new CloseEvent("close", { code: 4403, reason: "access revoked" })),
  );
  await settle();
  expect(host.querySelector("[data-testid=access-revoked]")).not.toBeNull();
  expect(host.querySelector("[aria-label='Waiting to be sent']")).toBeNull();
  const notSent = host.querySelector("[aria-label='Not sent']")?.textContent ?? "";
  expect(notSent).toContain(long.trim());
  expect(notSent).not.toContain("goes as soon as the connection is back");
  // Not kept: should they be shared with again, it does not go by itself.
  expect(localStorage.getItem(outboxKey(ME.id, CONVERSATION.id))).toBeNull();
});

it("when the owner stops sharing while it is open, the page says so and 'Shared with you' drops it", async () => {
  members.push(asParticipant);
  await openPage();
  const sharedList = () => host.querySelector("[data-testid=shared-with-me]");
  expect(sharedList()?.textContent).toContain(CONVERSATION.title);
  await until(() => sockets.length > 0);

  shared = false;
  await act(async () =>
    sockets
      .at(-1)!
      .dispatchEvent(new CloseEvent("close", { code: 4403, reason: "access revoked" })),
  );
  await settle();
  expect(host.querySelector("[data-testid=access-revoked]")?.textContent).toContain(
    "stopped sharing",
  );
  expect(sharedList()).toBeNull();
});
