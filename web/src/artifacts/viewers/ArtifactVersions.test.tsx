// @vitest-environment jsdom
// Editing a document keeps what it replaced: the pane lists the earlier versions, shows one, and
// puts it back with a save that names the version it replaces.
import { act } from "react";
import type { Root } from "react-dom/client";
import { afterEach, expect, it, vi } from "vitest";
import { mountInPage } from "../../test-page";
import type { Artifact } from "../../../../durable-objects/protocol/rest";
import { ArtifactEditingAllowed } from "../artifact-editing";
import { artifact } from "../test-artifact";
import { viewerFor } from "./viewer-for";

let root: Root;
let host: HTMLElement;
afterEach(() => {
  vi.unstubAllGlobals();
});

const settle = () =>
  act(async () => {
    for (let i = 0; i < 10; i++) await Promise.resolve();
  });
const button = (start: string) =>
  [...host.querySelectorAll("button")].find((b) => b.textContent?.startsWith(start));

const current = artifact({
  id: "doc",
  type: "text/markdown",
  content: "# Draft 2",
  updatedAt: 300,
});
const earlier = { id: "v1", artifactId: "doc", title: "Notes", size: 9, savedAt: 200 };

function stubApi() {
  const sent: Array<{ method: string; url: string; body: unknown }> = [];
  vi.stubGlobal(
    "fetch",
    vi.fn((url: string, init?: RequestInit) => {
      const method = init?.method ?? "GET";
      sent.push({ method, url, body: init?.body ? JSON.parse(String(init.body)) : undefined });
      if (url.endsWith("/versions")) return Promise.resolve(Response.json({ items: [earlier] }));
      if (url.endsWith("/versions/v1"))
        return Promise.resolve(Response.json({ ...earlier, content: "# Draft 1" }));
      // The PATCH that restores it.
      return Promise.resolve(Response.json({ ...current, content: "# Draft 1", updatedAt: 400 }));
    }),
  );
  return sent;
}

function show(editable: boolean, onSaved: (a: Artifact) => void = () => undefined) {
  const Viewer = viewerFor(current.type);
  ({ host, root } = mountInPage());
  act(() =>
    root.render(
      <ArtifactEditingAllowed.Provider value={editable}>
        <Viewer artifact={current} onSaved={onSaved} />
      </ArtifactEditingAllowed.Provider>,
    ),
  );
}

it("lists, shows and restores an earlier version of an edited document", async () => {
  const sent = stubApi();
  const saved: Artifact[] = [];
  show(true, (a) => saved.push(a));
  act(() => button("Earlier versions")!.click());
  await settle();
  const entry = button("Saved ")!;
  expect(entry.textContent).toBe(`Saved ${new Date(200).toLocaleString()}`);
  act(() => entry.click());
  await settle();
  expect(host.querySelector("[data-testid=artifact-version-content]")?.textContent).toBe(
    "# Draft 1",
  );
  act(() => button("Restore this version")!.click());
  await settle();
  expect(sent.at(-1)).toEqual({
    method: "PATCH",
    url: "/api/artifacts/doc",
    body: { content: "# Draft 1", baseUpdatedAt: 300 },
  });
  expect(saved.at(-1)).toMatchObject({ content: "# Draft 1", updatedAt: 400 });
});

it("lets a member read earlier versions but not restore one", async () => {
  stubApi();
  show(false);
  act(() => button("Earlier versions")!.click());
  await settle();
  act(() => button("Saved ")!.click());
  await settle();
  expect(host.querySelector("[data-testid=artifact-version-content]")?.textContent).toBe(
    "# Draft 1",
  );
  expect(button("Restore this version")).toBeUndefined();
});
