// Keeps Tab inside a panel that covers the page (Settings, the phone's drawer): from its last
// control Tab goes to its first, and Shift+Tab from its first to its last, instead of on to the
// controls hidden behind it. A native modal <dialog> inside traps focus itself and is left alone.
import type { KeyboardEvent } from "react";

const FOCUSABLE =
  "a[href], button:not([disabled]), input:not([disabled]):not([type=hidden]), select:not([disabled]), textarea:not([disabled]), summary, [tabindex]:not([tabindex='-1'])";

/** The controls Tab stops at: not hidden, not inert, not inside a closed <details>. */
function tabStops(panel: HTMLElement): HTMLElement[] {
  return [...panel.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => {
    if (el.tabIndex < 0 || el.closest("[hidden], [inert], dialog")) return false;
    const closed = el.closest("details:not([open])");
    // A closed <details> shows its own summary only.
    return !closed || (el.tagName === "SUMMARY" && el.parentElement === closed);
  });
}

export function keepTabWithin(e: KeyboardEvent<HTMLElement>): void {
  if (e.key !== "Tab" || e.defaultPrevented) return;
  if ((e.target as Element).closest("dialog")) return;
  const stops = tabStops(e.currentTarget);
  const first = stops[0];
  const last = stops.at(-1);
  if (!first || !last) return;
  const at = document.activeElement;
  if (e.shiftKey ? at === first : at === last) {
    e.preventDefault();
    (e.shiftKey ? last : first).focus();
  }
}
