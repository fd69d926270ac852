// Whether a CSS media query matches now, kept in step as the window changes size.
import { useSyncExternalStore } from "react";

export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = matchMedia(query);
      list.addEventListener("change", onChange);
      return () => list.removeEventListener("change", onChange);
    },
    () => matchMedia(query).matches,
    () => false,
  );
}

/** Below a tablet's width the conversation list is a drawer and artifacts a full-screen sheet. */
export const PHONE_QUERY = "(max-width: 47.99rem)";
/** From a desktop's width the panes can be resized. */
export const DESKTOP_QUERY = "(min-width: 64rem)";
