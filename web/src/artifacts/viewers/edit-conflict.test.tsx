// @vitest-environment jsdom
// Two tabs edit the same document: the second save is refused with words saying why, and
// Reload shows the version saved meanwhile instead of silently overwriting it.
import { act } from "react";
import type { Root } from "react-dom/client";
import { afterEach, expect, it, vi } from "vitest";
import { mountInPage } from "../../test-page";
import type { Artifact } from "../../../../durable-objects/protocol/rest";
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

const button = (name: string) =>
  [...host.querySelectorAll("button")].find((b) => b.textContent === name);

function type(text: string) {
  const area = host.querySelector("textarea")!;
  const setValue = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, "value")!.set!;
  act(() => {
    setValue.call(area, text);
    area.dispatchEvent(new Event("input", { bubbles: true }));
  });
}

it("refuses a save over a version saved since, and Reload shows that version", async () => {
  const opened = artifact({ type: "text/markdown", content: "v1", updatedAt: 100 });
  const theirs = { ...opened, content: "their edit", updatedAt: 200 };
  const sent: Array<{ method: string; body: unknown }> = [];
  vi.stubGlobal(
    "fetch",
    vi.fn((_url: string, init?: RequestInit) => {
      const method = init?.method ?? "GET";
      sent.push({ method, body: init?.body ? JSON.parse(String(init.body)) : undefined });
      if (method === "GET") return Promise.resolve(Response.json(theirs));
      // The server's answer when the version edited is no longer the latest.
      return Promise.resolve(
        Response.json(
          {
            error: {
              code: "conflict",
              message:
                "This artifact was changed since you opened it; reload it to see the new version, then edit again.",
            },
          },
          { status: 409 },
        ),
      );
    }),
  );
  const shown: Artifact[] = [];
  const Viewer = viewerFor(opened.type);
  ({ host, root } = mountInPage());
  act(() => root.render(<Viewer artifact={opened} onSaved={(a) => shown.push(a)} />));

  act(() => button("Edit")!.click());
  type("my edit");
  act(() => button("Save")!.click());
  await settle();

  expect(sent[0]).toEqual({ method: "PATCH", body: { content: "my edit", baseUpdatedAt: 100 } });
  expect(host.querySelector("[role=alert]")?.textContent).toMatch(/changed since you opened it/);
  // The draft stays to copy from; saving it again is not offered.
  expect(host.querySelector("textarea")?.value).toBe("my edit");
  expect(button("Save")).toBeUndefined();

  act(() => button("Reload (drops your edit)")!.click());
  await settle();
  expect(shown.at(-1)).toMatchObject({ content: "their edit", updatedAt: 200 });
  expect(host.querySelector("textarea")).toBeNull();
});
