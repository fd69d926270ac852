// @vitest-environment jsdom
// Renaming an artifact from the pane: Rename, type, Save title; the header and the list (through
// onChanged) show the new title; an empty one is refused with words, without a request. A rename
// names the version it began from: one made meanwhile elsewhere is said, never silently replaced.
import { act } from "react";
import type { Root } from "react-dom/client";
import { afterEach, expect, it, vi } from "vitest";
import { mountInPage } from "../test-page";
import type { Artifact } from "../../../durable-objects/protocol/rest";
import { ArtifactHeader } from "./ArtifactHeader";
import { artifact } from "./test-artifact";

let root: Root;
let host: HTMLElement;
afterEach(() => {
  vi.unstubAllGlobals();
});

const button = (name: string) =>
  [...host.querySelectorAll("button")].find((b) => b.textContent === name);

function type(text: string) {
  const input = host.querySelector("input")!;
  const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")!.set!;
  act(() => {
    setValue.call(input, text);
    input.dispatchEvent(new Event("input", { bubbles: true }));
  });
}

function showHeader(onChanged: (a: Artifact) => void) {
  ({ host, root } = mountInPage());
  const render = (a: Artifact) =>
    root.render(
      <ArtifactHeader
        artifact={a}
        onBack={() => undefined}
        onChanged={(next) => {
          onChanged(next);
          render(next);
        }}
        onDeleted={() => undefined}
      />,
    );
  act(() => render(artifact({ id: "a1", title: "Notes", updatedAt: 5 })));
  // The pane passes the artifact as it is now (another tab changed it, say).
  return (a: Artifact) => act(() => render(a));
}

const settle = () =>
  act(async () => {
    for (let i = 0; i < 10; i++) await Promise.resolve();
  });

const CONFLICT = {
  error: {
    code: "conflict",
    message:
      "This artifact was changed since you opened it; reload it to see the new version, then edit again.",
  },
};

it("renames the open artifact", async () => {
  const sent: unknown[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn((_url: string, init?: RequestInit) => {
      const body = JSON.parse(String(init?.body)) as { title: string };
      sent.push(body);
      return Promise.resolve(Response.json(artifact({ id: "a1", title: body.title })));
    }),
  );
  const changed: Artifact[] = [];
  showHeader((a) => changed.push(a));
  act(() => button("Rename")!.click());
  expect(host.querySelector("label")?.textContent).toBe("New title");
  type("   ");
  act(() => button("Save title")!.click());
  expect(host.querySelector("[role=alert]")?.textContent).toMatch(/title cannot be empty/);
  expect(sent).toEqual([]);

  type("Meeting notes, March");
  await act(async () => {
    button("Save title")!.click();
    for (let i = 0; i < 10; i++) await Promise.resolve();
  });
  expect(sent).toEqual([{ title: "Meeting notes, March", baseUpdatedAt: 5 }]);
  expect(changed.at(-1)?.title).toBe("Meeting notes, March");
  expect(host.querySelector("h2")?.textContent).toBe("Meeting notes, March");
  expect(host.querySelector("input")).toBeNull();
});

it("refuses to rename over a rename made since, and Reload shows it and keeps your title", async () => {
  const theirs = artifact({ id: "a1", title: "Their title", updatedAt: 9 });
  const sent: Array<{ method: string; body: unknown }> = [];
  vi.stubGlobal(
    "fetch",
    vi.fn((_url: string, init?: RequestInit) => {
      const method = init?.method ?? "GET";
      const body = init?.body ? (JSON.parse(String(init.body)) as { title: string }) : undefined;
      sent.push({ method, body });
      if (method === "GET") return Promise.resolve(Response.json(theirs));
      // The second PATCH names the version Reload showed.
      return Promise.resolve(
        sent.filter((s) => s.method === "PATCH").length === 1
          ? Response.json(CONFLICT, { status: 409 })
          : Response.json(artifact({ id: "a1", title: body!.title, updatedAt: 10 })),
      );
    }),
  );
  showHeader(() => undefined);
  act(() => button("Rename")!.click());
  type("My title");
  act(() => button("Save title")!.click());
  await settle();
  expect(host.querySelector("[role=alert]")?.textContent).toMatch(/changed since you opened it/);
  // Saving the same again is not offered until the new version is seen.
  expect(button("Save title")).toBeUndefined();
  act(() => button("Reload")!.click());
  await settle();
  expect(host.querySelector("input")?.value).toBe("My title");
  expect(host.querySelector("[role=alert]")).toBeNull();
  act(() => button("Save title")!.click());
  await settle();
  expect(sent.filter((s) => s.method === "PATCH").map((s) => s.body)).toEqual([
    { title: "My title", baseUpdatedAt: 5 },
    { title: "My title", baseUpdatedAt: 9 },
  ]);
  expect(host.querySelector("h2")?.textContent).toBe("My title");
});

it("says at once when another tab renames it while you type, and saves nothing over it", async () => {
  const fetchMock = vi.fn(() => Promise.resolve(Response.json(artifact())));
  vi.stubGlobal("fetch", fetchMock);
  const showNow = showHeader(() => undefined);
  act(() => button("Rename")!.click());
  type("My title");
  // Another tab's save of the content is no conflict: Save title stays.
  showNow(artifact({ id: "a1", title: "Notes", updatedAt: 7, content: "new text" }));
  expect(button("Save title")).toBeDefined();
  expect(host.querySelector("[role=alert]")).toBeNull();
  showNow(artifact({ id: "a1", title: "Their title", updatedAt: 8 }));
  expect(host.querySelector("[role=alert]")?.textContent).toMatch(
    /Renamed “Their title” in another tab/,
  );
  expect(button("Save title")).toBeUndefined();
  expect(button("Reload")).toBeDefined();
  expect(host.querySelector("input")?.value).toBe("My title");
  expect(fetchMock).not.toHaveBeenCalled();
});
