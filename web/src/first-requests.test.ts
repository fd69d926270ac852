import { afterEach, describe, expect, it, vi } from "vitest";
import { api } from "./api";
import { forgetFirstRequests, startFirstRequests } from "./first-requests";

const CHECK = { kind: "check", user: { id: "u1", name: "Ada" } } as const;

afterEach(() => {
  forgetFirstRequests();
  vi.unstubAllGlobals();
});

const listOf = (title: string) => ({
  items: [
    {
      id: "c1",
      title,
      provider: "anthropic",
      model: "claude",
      mode: "normal",
      settings: {},
      createdAt: 1,
      updatedAt: 1,
    },
  ],
  nextCursor: null,
});

/** The server as the page sees it: who is signed in, and the list, which changes over time. */
function server(signedIn: boolean) {
  let listTitle = "Tidal forces";
  const fetch = vi.fn((path: string) =>
    Promise.resolve(
      !signedIn
        ? Response.json({ error: { code: "unauthorized", message: "Sign in." } }, { status: 401 })
        : path === "/api/session"
          ? Response.json({ user: { id: "u1", name: "Ada" } })
          : path.startsWith("/api/conversations")
            ? Response.json(listOf(listTitle))
            : Response.json({ providers: [], items: [] }),
    ),
  );
  vi.stubGlobal("fetch", fetch);
  return {
    fetch,
    rename: (title: string) => (listTitle = title),
    signIn: () => (signedIn = true),
    asked: (path: string) => fetch.mock.calls.filter(([p]) => p === path).length,
  };
}

describe("the first screen's requests", () => {
  it("asks for the session and the list together, and the list shown is that early answer", async () => {
    const s = server(true);
    startFirstRequests(CHECK, s.fetch);
    // All four are on their way before the session check has answered.
    expect(s.fetch.mock.calls.map(([p]) => p)).toEqual([
      "/api/session",
      "/api/conversations?limit=100",
      "/api/providers",
      "/api/shared-with-me",
    ]);
    await expect(api.session()).resolves.toEqual({ user: { id: "u1", name: "Ada" } });
    expect((await api.conversations()).items[0]?.title).toBe("Tidal forces");
    expect(s.asked("/api/conversations?limit=100")).toBe(1);

    // The list's next refresh asks again and shows what changed since.
    s.rename("Tides, renamed");
    expect((await api.conversations()).items[0]?.title).toBe("Tides, renamed");
    expect(s.asked("/api/conversations?limit=100")).toBe(2);
  });

  it("starts nothing for a start link: the list comes after the sign-in, for that session", async () => {
    const s = server(true);
    startFirstRequests({ kind: "start-link", token: "tc_abc" }, s.fetch);
    expect(s.fetch).not.toHaveBeenCalled();
    await api.conversations();
    expect(s.asked("/api/conversations?limit=100")).toBe(1);
  });

  it("starts nothing where nobody is signed in: the sign-in page asks for nothing", () => {
    const s = server(false);
    startFirstRequests({ kind: "signed-out" }, s.fetch);
    expect(s.fetch).not.toHaveBeenCalled();
  });

  it("after a failed session check, signing in shows the new session's list, not the early refusal", async () => {
    const s = server(false);
    startFirstRequests(CHECK, s.fetch);
    await expect(api.session()).rejects.toMatchObject({ status: 401 });
    forgetFirstRequests(); // what App does when the check fails
    s.signIn();
    expect((await api.conversations()).items[0]?.title).toBe("Tidal forces");
  });
});
