// @vitest-environment jsdom
// A page reloaded offline shows its conversation's title and model and opens its Settings from
// what the browser last saw of them; a save says it waits for the network instead of failing
// without a reason.
import { act } from "react";
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { App } from "../App";
import { stubAppPage } from "../test-app-page";
import { mountInPage } from "../test-page";

const ME = { id: "u-ada", name: "ada" };
const CONVERSATION = {
  id: "c-trip",
  title: "Trip plans",
  provider: "anthropic",
  model: "claude-haiku-4-5",
  mode: "normal",
  settings: { maxSteps: 7 },
  createdAt: 1,
  updatedAt: 1,
};
const PROVIDERS = [
  {
    id: "anthropic",
    configured: true,
    defaultModel: "claude-haiku-4-5",
    models: ["claude-haiku-4-5", "claude-sonnet-4-5"],
  },
];

const json = (body: unknown) =>
  new Response(JSON.stringify(body), {
    status: 200,
    headers: { "content-type": "application/json" },
  });

/** Answers as the server does for the user's own conversation. */
async function server(path: string, init?: RequestInit): Promise<Response> {
  const conv = `/api/conversations/${CONVERSATION.id}`;
  if (path === conv && init?.method === "PATCH") {
    const patch = JSON.parse(String(init.body)) as { settings: object };
    return json({ ...CONVERSATION, settings: patch.settings, updatedAt: 2 });
  }
  if (path === "/api/session")
    return init?.method === "DELETE" ? new Response(null, { status: 204 }) : json({ user: ME });
  if (path === "/api/providers") return json({ providers: PROVIDERS });
  if (path === conv) return json(CONVERSATION);
  if (path === "/api/tool-policies") return json({ policies: {} });
  if (path === `${conv}/members`) return json({ role: "owner", owner: ME, members: [] });
  if (path.startsWith("/api/conversations?"))
    return json({ items: [CONVERSATION], nextCursor: null });
  return json({ items: [] });
}
const offline = async () => {
  throw new TypeError("Failed to fetch");
};

class QuietSocket extends EventTarget {
  readyState = 0;
  send() {}
  close() {}
}

let online = true;
beforeEach(() => {
  online = true;
  stubAppPage({
    me: ME,
    conversationId: CONVERSATION.id,
    socket: QuietSocket,
    fetch: (path, init) => (online ? server(path, init) : offline()),
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
const buttonIn = (host: HTMLElement, name: string) =>
  [...host.querySelectorAll("button")].find((b) => b.textContent?.trim() === name);

async function load() {
  const page = mountInPage();
  await act(async () => page.root.render(<App />));
  return page.host;
}

it("reloaded offline, the conversation's Settings open from what was last seen, and a save says it waits for the network", async () => {
  // Seen online once: its details, the providers and the user's role there.
  const first = await load();
  await until(() => buttonIn(first, "Settings") !== undefined);
  await until(() => first.querySelector("#message-box") !== null);

  online = false;
  const host = await load();
  await until(() => host.querySelector("h1")?.textContent === "Trip plans");
  expect(host.querySelector(".conversation-header")?.textContent).toContain("claude-haiku-4-5");
  await act(async () => buttonIn(host, "Settings")!.click());
  await until(() => host.querySelector('[role="dialog"][aria-label="Settings"]') !== null);
  const settings = host.querySelector<HTMLElement>('[role="dialog"][aria-label="Settings"]')!;
  expect(settings.querySelector("[data-testid=settings-offline]")?.textContent).toContain(
    "You're offline: changes can be saved once you're back online.",
  );
  const steps = [...settings.querySelectorAll<HTMLInputElement>("input")].find(
    (i) => i.value === "7",
  );
  expect(steps, "the step limit last seen").toBeDefined();
  const save = [...settings.querySelectorAll("button")].find((b) => b.textContent === "Save")!;
  await act(async () => save.click());
  await until(() =>
    settings.textContent?.includes("You're offline: changes can be saved once you're back online."),
  );
  const alert = save.closest("form")!.querySelector('[role="alert"]');
  expect(alert?.textContent).toBe("You're offline: changes can be saved once you're back online.");
});

it("reloaded offline, Settings say once that the rest needs the network, with no errors; back online the sections load", async () => {
  const first = await load();
  await until(() => first.querySelector("#message-box") !== null);
  online = false;
  const host = await load();
  await until(() => buttonIn(host, "Settings") !== undefined);
  await act(async () => buttonIn(host, "Settings")!.click());
  const settings = () => host.querySelector<HTMLElement>('[role="dialog"][aria-label="Settings"]');
  await until(() => settings() !== null);
  // What each section says went wrong (some alert regions stay, empty, for a later failure).
  const alerts = () =>
    [...settings()!.querySelectorAll('[role="alert"]')].map((a) => a.textContent).filter(Boolean);
  await settle();
  expect(alerts()).toEqual([]);
  expect(settings()!.textContent).not.toMatch(/could not/i);
  expect(settings()!.querySelector("[data-testid=settings-need-network]")?.textContent).toBe(
    "Tools, MCP servers, API tokens & sessions, templates and provider health need the network: they show here once you're back online.",
  );
  const headings = () => [...settings()!.querySelectorAll("h3")].map((h) => h.textContent);
  expect(headings()).not.toContain("Templates");

  online = true;
  await act(async () => window.dispatchEvent(new Event("online")));
  await until(() => settings()?.querySelector("[data-testid=settings-need-network]") === null);
  await until(() => headings().includes("Templates"));
  expect(headings()).toContain("API tokens & sessions");
  expect(alerts()).toEqual([]);
});

it("offline with nothing seen before, no Settings is offered (nothing to show)", async () => {
  online = false;
  const host = await load();
  await until(() => host.querySelector("#message-box") !== null);
  expect(buttonIn(host, "Settings")).toBeUndefined();
});

it("offline, a conversation of the user's list never opened here shows its title and Settings from its row", async () => {
  history.replaceState(null, "", "/");
  const first = await load();
  await until(() => first.querySelector(".title")?.textContent === "Trip plans");

  online = false;
  history.replaceState(null, "", `/?c=${CONVERSATION.id}`);
  const host = await load();
  await until(() => host.querySelector("h1")?.textContent === "Trip plans");
  await until(() => buttonIn(host, "Settings") !== undefined);
});

it("Settings opened offline stay open with their unsaved changes when the network comes back, and then save", async () => {
  const first = await load();
  await until(() => first.querySelector("#message-box") !== null);
  online = false;
  const host = await load();
  await until(() => buttonIn(host, "Settings") !== undefined);
  await act(async () => buttonIn(host, "Settings")!.click());
  await until(() => host.querySelector('[role="dialog"][aria-label="Settings"]') !== null);
  const settings = () => host.querySelector<HTMLElement>('[role="dialog"][aria-label="Settings"]');
  const steps = () =>
    [...settings()!.querySelectorAll<HTMLInputElement>("input")].find((i) =>
      i.closest("label")?.textContent?.includes("Step limit"),
    );
  expect(steps()?.value).toBe("7");
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")!.set!;
  await act(async () => {
    setter.call(steps()!, "9");
    steps()!.dispatchEvent(new Event("input", { bubbles: true }));
  });

  online = true;
  await act(async () => window.dispatchEvent(new Event("online")));
  // The session is confirmed: the offline note goes, the panel and its change stay.
  await until(() => settings()?.querySelector("[data-testid=settings-offline]") === null);
  await settle();
  expect(settings()).not.toBeNull();
  expect(steps()?.value).toBe("9");
  const save = [...settings()!.querySelectorAll("button")].find((b) => b.textContent === "Save")!;
  await act(async () => save.click());
  await until(() => save.closest("form")?.textContent?.includes("Saved."));
});

it("signing out offline says it needs the network and keeps the page; back online it signs out", async () => {
  online = false;
  const host = await load();
  await until(() => buttonIn(host, "Sign out") !== undefined);
  await act(async () => buttonIn(host, "Sign out")!.click());
  await until(() => host.querySelector("[data-testid=sign-out-problem]") !== null);
  expect(host.querySelector("[data-testid=sign-out-problem]")?.textContent).toBe(
    "You're offline: signing out needs the server to end your session. Sign out again once you're back online.",
  );
  // Still the app, and the next visit still knows the user (the session was not ended).
  expect(host.querySelector("#message-box")).not.toBeNull();
  expect(localStorage.getItem("thinking-chat:last-user")).toContain(ME.id);

  online = true;
  await act(async () => buttonIn(host, "Sign out")!.click());
  await until(() => host.querySelector("#message-box") === null);
  expect(localStorage.getItem("thinking-chat:last-user")).toBeNull();
});
