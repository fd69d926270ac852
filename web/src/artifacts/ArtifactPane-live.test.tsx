// @vitest-environment jsdom
// The open artifact follows what other tabs (or people) do to it, as artifact_changed events
// tell the page: a newer version shows, a pin shows, a deletion is said (the version shown stays
// to copy from); an edit in progress is kept, and says when the text it was begun from has been
// saved over or deleted.
import { act } from "react";
import type { Root } from "react-dom/client";
import { afterEach, expect, it, vi } from "vitest";
import { mountInPage } from "../test-page";
import type { Artifact } from "../../../durable-objects/protocol/rest";
import type { ArtifactNow } from "../../../durable-objects/protocol/transcript";
import { ArtifactPane, DELETED_ELSEWHERE, DELETED_KEPT_ON_SCREEN } from "./ArtifactPane";
import { artifact } from "./test-artifact";

let root: Root;
let host: HTMLElement;
afterEach(() => {
  vi.unstubAllGlobals();
});

const settle = () =>
  act(async () => {
    for (let i = 0; i < 20; i++) await Promise.resolve();
  });
const button = (name: string) =>
  [...host.querySelectorAll("button")].find((b) => b.textContent === name);
const alertText = () => host.querySelector("[role=alert]")?.textContent ?? "";

/** The server's artifact (another tab changes it), the requests the pane made, and the pane. */
async function openPane(first: Artifact) {
  const server = { now: first };
  const requests: Array<{ method: string; url: string; body?: unknown }> = [];
  vi.stubGlobal(
    "fetch",
    vi.fn((url: string, init?: RequestInit) => {
      const method = init?.method ?? "GET";
      requests.push({
        method,
        url,
        ...(init?.body ? { body: JSON.parse(String(init.body)) as unknown } : {}),
      });
      if (url.endsWith("/artifacts"))
        return Promise.resolve(Response.json({ items: [server.now] }));
      if (method === "PATCH") {
        const body = JSON.parse(String(init!.body)) as { content: string };
        server.now = { ...server.now, content: body.content, updatedAt: server.now.updatedAt + 1 };
      }
      return Promise.resolve(Response.json(server.now));
    }),
  );
  ({ host, root } = mountInPage());
  const show = (changes: Record<string, ArtifactNow>) =>
    act(() =>
      root.render(
        <ArtifactPane
          conversationId="c1"
          openId={first.id}
          onOpen={() => undefined}
          refreshKey={0}
          changes={changes}
        />,
      ),
    );
  show({});
  await settle();
  return { server, requests, show };
}

const changed = (a: Artifact, change: ArtifactNow["change"], seq: number) => ({
  [a.id]: {
    seq,
    artifactId: a.id,
    change,
    title: a.title,
    pinned: a.pinned,
    updatedAt: a.updatedAt,
  },
});

const v1 = artifact({ type: "text/markdown", title: "Plan", content: "first text", updatedAt: 10 });

it("shows another tab's save, rename and pin at once, and says when it is deleted", async () => {
  const { server, requests, show } = await openPane(v1);
  expect(host.querySelector("h2")?.textContent).toBe("Plan");
  expect(host.textContent).toContain("first text");

  server.now = { ...v1, title: "Plan B", content: "their text", updatedAt: 20 };
  show(changed(server.now, "content", 5));
  await settle();
  expect(host.querySelector("h2")?.textContent).toBe("Plan B");
  expect(host.textContent).toContain("their text");

  // A pin is taken from the event: nothing to fetch.
  const fetched = requests.length;
  server.now = { ...server.now, pinned: true };
  show(changed(server.now, "pinned", 6));
  await settle();
  expect(button("Pinned")?.getAttribute("aria-pressed")).toBe("true");
  expect(requests).toHaveLength(fetched);

  show(changed(server.now, "deleted", 7));
  await settle();
  expect(alertText()).toContain(DELETED_ELSEWHERE);
  expect(alertText()).toContain(DELETED_KEPT_ON_SCREEN);
  // Its last version stays to read and copy; nothing that would answer 404 is offered.
  expect(host.textContent).toContain("their text");
  for (const name of ["Edit", "Delete", "Pinned", "Rename"]) expect(button(name)).toBeUndefined();
  expect(button("← Back to list")).toBeDefined();
});

it("keeps an edit in progress on screen to copy when the artifact is deleted elsewhere", async () => {
  const { requests, show } = await openPane(v1);
  act(() => button("Edit")!.click());
  const area = host.querySelector("textarea")!;
  const setValue = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, "value")!.set!;
  act(() => {
    setValue.call(area, "my unsaved text");
    area.dispatchEvent(new Event("input", { bubbles: true }));
  });

  show(changed(v1, "deleted", 5));
  await settle();
  expect(alertText()).toContain(DELETED_ELSEWHERE);
  expect(host.textContent).toContain("Your edit can no longer be saved");
  expect(host.querySelector("textarea")?.value).toBe("my unsaved text");
  expect(button("Save")).toBeUndefined();
  act(() => button("Close (drops your edit)")!.click());
  await settle();
  expect(host.querySelector("textarea")).toBeNull();
  expect(requests.filter((r) => r.method === "PATCH")).toEqual([]);
});

it("keeps an edit in progress when another tab saves over its text, and says so", async () => {
  const { server, requests, show } = await openPane(v1);
  act(() => button("Edit")!.click());
  const area = host.querySelector("textarea")!;
  const setValue = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, "value")!.set!;
  act(() => {
    setValue.call(area, "my text");
    area.dispatchEvent(new Event("input", { bubbles: true }));
  });

  // A rename elsewhere is no conflict: the edit saves on the renamed version.
  server.now = { ...v1, title: "Plan B", updatedAt: 20 };
  show(changed(server.now, "title", 5));
  await settle();
  expect(alertText()).toBe("");
  expect(button("Save")).toBeDefined();

  server.now = { ...server.now, content: "their text", updatedAt: 30 };
  show(changed(server.now, "content", 6));
  await settle();
  expect(alertText()).toMatch(/Changed in another tab.*since you began editing/);
  expect(host.querySelector("textarea")?.value).toBe("my text");
  expect(button("Save")).toBeUndefined();
  act(() => button("Reload (drops your edit)")!.click());
  await settle();
  expect(host.querySelector("textarea")).toBeNull();
  expect(host.textContent).toContain("their text");
  // Nothing was saved over their text.
  expect(requests.filter((r) => r.method === "PATCH")).toEqual([]);
});

it("saves an edit begun before a rename elsewhere, on the renamed version", async () => {
  const { server, requests, show } = await openPane(v1);
  act(() => button("Edit")!.click());
  server.now = { ...v1, title: "Plan B", updatedAt: 20 };
  show(changed(server.now, "title", 5));
  await settle();
  act(() => button("Save")!.click());
  await settle();
  expect(requests.filter((r) => r.method === "PATCH").map((r) => r.body)).toEqual([
    { content: "first text", baseUpdatedAt: 20 },
  ]);
});
