// Values the page keeps in the browser's storage (localStorage or the tab's sessionStorage) as
// JSON, checked with zod as they are read back: a value that is not one (an old format, a hand
// edit) holds nothing. Storage may be refused (private modes) or full: reading then finds nothing
// and writing keeps nothing, and the page goes on without what it would have remembered.
import type { z } from "zod";

export type BrowserStore = Pick<Storage, "getItem" | "setItem" | "removeItem">;

/** The value kept under `key`, or null when there is none that `schema` accepts. */
export function readStored<T>(
  store: Pick<Storage, "getItem"> | null | undefined,
  key: string,
  schema: z.ZodType<T>,
): T | null {
  try {
    const raw = store?.getItem(key);
    if (!raw) return null;
    const parsed = schema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Keeps `value` under `key`; false when the storage refused it. */
export function writeStored(
  store: Pick<Storage, "getItem" | "setItem"> | null | undefined,
  key: string,
  value: unknown,
): boolean {
  try {
    const json = JSON.stringify(value);
    // Refreshes often tell the same again (the list every 5 s): no write then.
    if (store?.getItem(key) !== json) store?.setItem(key, json);
    return true;
  } catch {
    return false;
  }
}

/** Forgets what is kept under `key` (refused storage holds nothing to forget). */
export function forgetStored(store: Pick<Storage, "removeItem"> | null | undefined, key: string) {
  try {
    store?.removeItem(key);
  } catch {
    // Nothing kept.
  }
}
