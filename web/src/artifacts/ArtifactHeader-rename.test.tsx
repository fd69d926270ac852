// @vitest-environment jsdom
// Renaming an artifact from the pane: Rename, type, Save title; the header and the list (through
// onChanged) show the new title; an empty one is refused with words, without a request.
import { act } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, beforeAll, expect, it, vi } from "vitest";
import type { Artifact } from "../../../durable-objects/protocol/rest";
import { ArtifactHeader } from "./ArtifactHeader";
import { artifact } from "./test-artifact";

beforeAll(() => {
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
});

let root: Root | null = null;
let host: HTMLElement;
afterEach(() => {
  act(() => root?.unmount());
  host?.remove();
  root = null;
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
  host = document.createElement("div");
  document.body.appendChild(host);
  root = createRoot(host);
  const render = (a: Artifact) =>
    root!.render(
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
}

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
  expect(sent).toEqual([{ title: "Meeting notes, March" }]);
  expect(changed.at(-1)?.title).toBe("Meeting notes, March");
  expect(host.querySelector("h2")?.textContent).toBe("Meeting notes, March");
  expect(host.querySelector("input")).toBeNull();
});
