// For jsdom tests: sets a field's value the way typing or choosing does, so React's onChange runs
// (React listens for `input` on text fields and `change` on selects, and ignores a plain assignment).
import { act } from "react";

export function typeInto(el: HTMLInputElement | HTMLSelectElement, value: string): void {
  const proto =
    el instanceof HTMLSelectElement ? HTMLSelectElement.prototype : HTMLInputElement.prototype;
  act(() => {
    Object.getOwnPropertyDescriptor(proto, "value")!.set!.call(el, value);
    el.dispatchEvent(
      new Event(el instanceof HTMLSelectElement ? "change" : "input", { bubbles: true }),
    );
  });
}
