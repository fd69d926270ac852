// Where the jsdom tests render: each gets an element of its own on the page, and every one a test
// made is unmounted and removed after it (test-setup.ts), so no test sees another's.
import { act } from "react";
import { createRoot, type Root } from "react-dom/client";

const mounted: Array<{ host: HTMLElement; root: Root }> = [];

/** A new element on the page, and a React root in it. */
export function mountInPage(): { host: HTMLElement; root: Root } {
  const host = document.createElement("div");
  document.body.appendChild(host);
  const page = { host, root: createRoot(host) };
  mounted.push(page);
  return page;
}

/** Unmounts and removes what the test mounted (a root it unmounted itself included). */
export function unmountPages(): void {
  for (const { host, root } of mounted.splice(0)) {
    act(() => root.unmount());
    host.remove();
  }
}
