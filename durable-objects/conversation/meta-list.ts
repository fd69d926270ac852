// A list of strings kept as one meta value of the object (JSON; read once, then held by the
// store). A value that is not such a list reads as empty rather than failing the turn.
import type { ConversationStore } from "./store";

type Meta = Pick<ConversationStore, "getMeta" | "setMeta">;

export function metaList(store: Meta, key: string): string[] {
  try {
    const list: unknown = JSON.parse(store.getMeta(key) ?? "[]");
    return Array.isArray(list) ? list.filter((x): x is string => typeof x === "string") : [];
  } catch {
    return [];
  }
}

/** Adds the items not in the list yet; whether any was. */
export function addToMetaList(store: Meta, key: string, ...items: string[]): boolean {
  const list = metaList(store, key);
  const added = items.filter((item, i) => !list.includes(item) && items.indexOf(item) === i);
  if (added.length > 0) store.setMeta(key, JSON.stringify([...list, ...added]));
  return added.length > 0;
}
