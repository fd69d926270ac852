// @vitest-environment jsdom
// The phone's drawer covers the chat: while open, Tab goes round its own controls.
import { act } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, beforeEach, expect, it } from "vitest";
import { Drawer } from "./Drawer";

let root: Root;
let host: HTMLElement;
beforeEach(async () => {
  host = document.createElement("div");
  document.body.appendChild(host);
  root = createRoot(host);
  await act(async () =>
    root.render(
      <>
        <Drawer phone open onClose={() => undefined}>
          <button type="button">New conversation</button>
          <button type="button">Sign out</button>
        </Drawer>
        <button type="button">Behind the drawer</button>
      </>,
    ),
  );
});
afterEach(async () => {
  await act(async () => root.unmount());
  host.remove();
});

const named = (name: string) =>
  [...host.querySelectorAll("button")].find((b) => b.textContent === name)!;

it("wraps Tab from the list's last control to its first, and Shift+Tab back", async () => {
  const press = (from: HTMLElement, shiftKey: boolean) =>
    act(async () => {
      from.focus();
      from.dispatchEvent(new KeyboardEvent("keydown", { key: "Tab", shiftKey, bubbles: true }));
    });
  await press(named("Sign out"), false);
  expect(document.activeElement).toBe(named("New conversation"));
  await press(named("New conversation"), true);
  expect(document.activeElement).toBe(named("Sign out"));
});
