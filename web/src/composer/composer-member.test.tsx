// @vitest-environment jsdom
// A member (participant) of a shared conversation: the owner's MCP prompts and resources are not
// offered (the API answers 403), `/` stays plain text, and Attach says why it is disabled.
import { act } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, beforeEach, expect, it } from "vitest";
import type { CatalogApi } from "./catalog-api";
import { Composer, MEMBER_CATALOG_REASON } from "./Composer";

let calls: string[];
const refuse = (method: string) => async () => {
  calls.push(method);
  throw new Error("403: only the owner");
};
const catalog: CatalogApi = {
  prompts: refuse("prompts"),
  prompt: refuse("prompt"),
  complete: refuse("complete"),
  resources: refuse("resources"),
  attach: refuse("attach"),
};

let root: Root;
let host: HTMLDivElement;
let sent: string[];

beforeEach(async () => {
  calls = [];
  sent = [];
  host = document.createElement("div");
  document.body.appendChild(host);
  root = createRoot(host);
  await act(async () =>
    root.render(
      <Composer
        conversationId="c1"
        busy={false}
        onSend={(t) => sent.push(t)}
        onCancel={() => undefined}
        api={catalog}
        canUseMcpCatalog={false}
      />,
    ),
  );
});
afterEach(async () => {
  await act(async () => root.unmount());
  host.remove();
});

const settle = () => act(() => new Promise((r) => setTimeout(r, 0)));
const box = () => host.querySelector<HTMLTextAreaElement>('textarea[aria-label="Message"]')!;
const attach = () => [...host.querySelectorAll("button")].find((b) => b.textContent === "Attach")!;

async function type(el: HTMLTextAreaElement, value: string) {
  const setter = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(el), "value")!.set!;
  await act(async () => {
    setter.call(el, value);
    el.dispatchEvent(new Event("input", { bubbles: true }));
  });
  await settle();
}

it("a leading / opens no prompt picker and asks the API for nothing", async () => {
  await type(box(), "/usr/bin is where it lives");
  expect(host.querySelector('[role="listbox"]')).toBeNull();
  expect(host.querySelectorAll('[role="option"]')).toHaveLength(0);
  expect(calls).toEqual([]);
});

it("Attach (MCP resources) is disabled, saying only the owner can use them", async () => {
  expect(attach().disabled).toBe(true);
  expect(attach().title).toBe(MEMBER_CATALOG_REASON);
  await act(async () => attach().click());
  await settle();
  expect(host.querySelector('[aria-label="Attach a resource"]')).toBeNull();
  expect(calls).toEqual([]);
});
