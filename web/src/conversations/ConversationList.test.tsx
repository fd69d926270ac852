// @vitest-environment jsdom
import { act } from "react";
import type { Root } from "react-dom/client";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { mountInPage } from "../test-page";
import type { ConversationListItem } from "../../../durable-objects/protocol/rest";
import { ConversationList } from "./ConversationList";
import { creationRefused } from "./new-conversation";

let root: Root;
let host: HTMLElement;
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const conversation = (id: string, title: string, snippet?: string): ConversationListItem => ({
  id,
  title,
  provider: "anthropic",
  model: "claude",
  mode: "normal",
  settings: {},
  createdAt: Date.now(),
  updatedAt: Date.now(),
  ...(snippet ? { snippet } : {}),
});

/** The API as the list sees it: the search (`q`) answers with a hit inside a message. */
function stubApi() {
  const fetch = vi.fn((url: string) => {
    const q = new URL(url, "https://app.example").searchParams.get("q");
    const items = q
      ? [conversation("c2", "Plant notes", "Chlorophyll absorbs mostly blue and red light.")]
      : [conversation("c1", "Tidal forces"), conversation("c2", "Plant notes")];
    return Promise.resolve(Response.json({ items, nextCursor: null }));
  });
  vi.stubGlobal("fetch", fetch);
  return fetch;
}

async function settle() {
  await act(async () => {
    for (let i = 0; i < 5; i++) await Promise.resolve();
  });
}

/** The list as the app shows it, for a signed-in Alice. */
function showList(props: Partial<Parameters<typeof ConversationList>[0]> = {}) {
  ({ host, root } = mountInPage());
  act(() =>
    root.render(
      <ConversationList
        selected={null}
        onSelect={() => undefined}
        user={{ id: "u1", name: "Alice" }}
        providers={[]}
        onSignOut={() => undefined}
        {...props}
      />,
    ),
  );
}

describe("searching the conversation list", () => {
  it("asks the API with the typed words and shows the matching message text", async () => {
    const fetch = stubApi();
    showList();
    await settle();
    const titles = () => [...host.querySelectorAll(".title")].map((t) => t.textContent);
    expect(titles()).toEqual(["Tidal forces", "Plant notes"]);

    const box = host.querySelector<HTMLInputElement>('input[type="search"]')!;
    expect(box.placeholder).toBe("Search titles and messages");
    act(() => {
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")!.set!.call(
        box,
        "chlorophyll",
      );
      box.dispatchEvent(new Event("input", { bubbles: true }));
    });
    await settle();
    expect(fetch).toHaveBeenLastCalledWith(
      "/api/conversations?limit=100&q=chlorophyll",
      expect.anything(),
    );
    expect(titles()).toEqual(["Plant notes"]);
    expect(host.querySelector(".snippet")?.textContent).toBe(
      "Chlorophyll absorbs mostly blue and red light.",
    );
  });
});

describe("branches in the conversation list", () => {
  it("lists each branch under the conversation it was made from", async () => {
    const origin = { ...conversation("c1", "Tides"), updatedAt: Date.now() - 60_000 };
    const other = { ...conversation("c2", "Plants"), updatedAt: Date.now() - 30_000 };
    const branch = {
      ...conversation("c3", "Tides, regenerated"),
      branchedFrom: { conversationId: "c1", messageId: "m2", step: 0, seq: 2 },
    };
    vi.stubGlobal(
      "fetch",
      vi.fn(() =>
        Promise.resolve(Response.json({ items: [branch, other, origin], nextCursor: null })),
      ),
    );
    showList();
    await settle();
    const rows = [...host.querySelectorAll("li")].map((li) => [
      li.querySelector(".title")!.textContent,
      li.classList.contains("branch"),
    ]);
    // The family is placed by its newest member (the branch), the branch right under its origin.
    expect(rows).toEqual([
      ["Tides", false],
      ["↳ Branch: Tides, regenerated", true],
      ["Plants", false],
    ]);
  });
});

describe("a new conversation in the list", () => {
  it("shows at once, and leaves the list when its socket could not create it", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn((url: string) =>
        Promise.resolve(
          url === "/api/templates"
            ? Response.json({ items: [] })
            : Response.json({ items: [conversation("c1", "Tidal forces")], nextCursor: null }),
        ),
      ),
    );
    const id = "0b6c1f9e-5a52-4d0a-9d8f-3f1c8e2a7b10";
    vi.spyOn(crypto, "randomUUID").mockReturnValue(id);
    const selected: (string | null)[] = [];
    showList({
      onSelect: (c) => selected.push(c),
      providers: [{ id: "openai", configured: true, defaultModel: "gpt-x", models: [] }],
    });
    await settle();
    act(() => host.querySelector<HTMLButtonElement>("button.primary")!.click());
    await vi.waitFor(() => expect(host.querySelector("form")).not.toBeNull());
    await act(async () => host.querySelector("form")!.requestSubmit());
    const titles = () => [...host.querySelectorAll(".title")].map((t) => t.textContent);
    expect(titles()).toEqual(["New conversation", "Tidal forces"]);
    expect(selected).toEqual([id]);
    // The form that had the focus is gone: the new conversation's message box takes it once its
    // code has loaded and it shows.
    await new Promise((r) => setTimeout(r, 50));
    const messageBox = document.createElement("textarea");
    messageBox.id = "message-box";
    document.body.appendChild(messageBox);
    await vi.waitFor(() => expect(document.activeElement).toBe(messageBox));
    messageBox.remove();

    await act(async () => creationRefused(id, "Too many new conversations."));
    await settle();
    expect(titles()).toEqual(["Tidal forces"]);
  });
});

describe("the list by keyboard", () => {
  beforeAll(() => {
    // jsdom has <dialog> without its modal methods.
    const proto = HTMLDialogElement.prototype as { showModal?: () => void; close?: () => void };
    proto.showModal ??= function (this: HTMLDialogElement) {
      this.setAttribute("open", "");
    };
    proto.close ??= function (this: HTMLDialogElement) {
      this.removeAttribute("open");
    };
  });
  const row = (title: string) =>
    [...host.querySelectorAll<HTMLButtonElement>("button.link")].find((b) =>
      b.textContent?.startsWith(title),
    )!;
  const named = (name: string) => host.querySelector<HTMLButtonElement>(`[aria-label="${name}"]`)!;
  const press = (key: string) =>
    act(async () => {
      document.activeElement!.dispatchEvent(
        new KeyboardEvent("keydown", { key, bubbles: true, cancelable: true }),
      );
    });

  it("is one Tab stop a conversation; arrows reach its Rename and Delete and the next one", async () => {
    stubApi();
    showList();
    await settle();
    const tabStops = [...host.querySelectorAll<HTMLElement>("li button")].filter(
      (b) => b.tabIndex >= 0,
    );
    expect(tabStops).toEqual([row("Tidal forces"), row("Plant notes")]);

    row("Tidal forces").focus();
    await press("ArrowRight");
    expect(document.activeElement).toBe(named("Rename Tidal forces"));
    await press("ArrowRight");
    expect(document.activeElement).toBe(named("Delete Tidal forces"));
    await press("ArrowLeft");
    await press("ArrowLeft");
    await press("ArrowDown");
    expect(document.activeElement).toBe(row("Plant notes"));
  });

  it("deletes with the Delete key, then puts focus on the conversation that took its place", async () => {
    const list = stubApi();
    const fetch = vi.fn((url: string, init?: RequestInit) =>
      init?.method === "DELETE" ? Promise.resolve(new Response(null, { status: 204 })) : list(url),
    );
    vi.stubGlobal("fetch", fetch);
    showList();
    await settle();
    row("Tidal forces").focus();
    await press("Delete");
    const confirm = [...host.querySelectorAll("dialog[open] button")].find(
      (b) => b.textContent === "Delete conversation",
    ) as HTMLButtonElement;
    await act(async () => confirm.click());
    await settle();
    expect(fetch).toHaveBeenCalledWith("/api/conversations/c1", expect.anything());
    expect([...host.querySelectorAll(".title")].map((t) => t.textContent)).toEqual(["Plant notes"]);
    expect(document.activeElement).toBe(row("Plant notes"));
  });
});

describe("a title the model gives the open conversation", () => {
  it("shows in the list at once, not on the list's next refresh", async () => {
    const fetch = stubApi();
    showList({ selected: "c1" });
    await settle();
    const titles = () => [...host.querySelectorAll(".title")].map((t) => t.textContent);
    expect(titles()).toEqual(["Tidal forces", "Plant notes"]);
    const asked = fetch.mock.calls.length;
    act(() =>
      root.render(
        <ConversationList
          selected="c1"
          onSelect={() => undefined}
          user={{ id: "u1", name: "Alice" }}
          providers={[]}
          onSignOut={() => undefined}
          liveTitle={{ id: "c1", title: "Moon and tides" }}
        />,
      ),
    );
    expect(titles()).toEqual(["Moon and tides", "Plant notes"]);
    // Without asking the API again.
    expect(fetch.mock.calls.length).toBe(asked);
  });
});

describe("the list reloaded offline", () => {
  it("shows the conversations as last seen, rather than none", async () => {
    localStorage.clear();
    stubApi();
    showList();
    await settle();
    const titles = () => [...host.querySelectorAll(".title")].map((t) => t.textContent);
    expect(titles()).toEqual(["Tidal forces", "Plant notes"]);
    act(() => root.unmount());

    vi.stubGlobal(
      "fetch",
      vi.fn(() => Promise.reject(new TypeError("Failed to fetch"))),
    );
    showList();
    await settle();
    expect(titles()).toEqual(["Tidal forces", "Plant notes"]);
    // Another user signed in on this browser sees none of them.
    act(() => root.unmount());
    showList({ user: { id: "u2", name: "Bob" } });
    await settle();
    expect(titles()).toEqual([]);
  });
});

describe("the list remembered for a reload offline", () => {
  it("is written to localStorage only when the 5 s refresh brings a change", async () => {
    localStorage.clear();
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    try {
      // The server's list, the same at each refresh (as it is when nothing changed).
      const same = [conversation("c1", "Tidal forces"), conversation("c2", "Plant notes")];
      const fetch = vi.fn(() => Promise.resolve(Response.json({ items: same, nextCursor: null })));
      vi.stubGlobal("fetch", fetch);
      const writes = vi.spyOn(Storage.prototype, "setItem");
      const listWrites = () =>
        writes.mock.calls.filter(([key]) => key.startsWith("thinking-chat:list:")).length;
      showList();
      await settle();
      expect(listWrites()).toBe(1);

      // Three refreshes telling the same list: nothing written.
      for (let i = 0; i < 3; i++) {
        act(() => vi.advanceTimersByTime(5000));
        await settle();
      }
      expect(fetch.mock.calls.length).toBe(4);
      expect(listWrites()).toBe(1);

      // A renamed conversation is remembered at the next refresh.
      same[0] = { ...same[0]!, title: "Moon and tides" };
      act(() => vi.advanceTimersByTime(5000));
      await settle();
      expect(listWrites()).toBe(2);
      expect(localStorage.getItem("thinking-chat:list:u1")).toContain("Moon and tides");
      act(() => root.unmount());
    } finally {
      vi.useRealTimers();
    }
  });
});
