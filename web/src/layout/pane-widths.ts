// The widths of the desktop's resizable panes, clamped to what keeps the conversation readable
// and remembered in localStorage (parsed with zod: the stored value may be from anywhere).
import { z } from "zod";

export type PaneName = "sidebar" | "artifacts";

export const PANE_LIMITS: Record<PaneName, { min: number; max: number; initial: number }> = {
  sidebar: { min: 200, max: 480, initial: 280 },
  artifacts: { min: 320, max: 900, initial: 520 },
};

const storageKey = (pane: PaneName) => `thinking-chat:pane-width:${pane}`;
const StoredWidth = z.coerce.number().int().finite();

export function clampWidth(pane: PaneName, width: number): number {
  const { min, max } = PANE_LIMITS[pane];
  return Math.round(Math.min(max, Math.max(min, width)));
}

type Store = Pick<Storage, "getItem" | "setItem">;

export function readWidth(pane: PaneName, store: Store | null): number {
  const parsed = StoredWidth.safeParse(store?.getItem(storageKey(pane)) ?? undefined);
  return parsed.success ? clampWidth(pane, parsed.data) : PANE_LIMITS[pane].initial;
}

export function saveWidth(pane: PaneName, width: number, store: Store | null): void {
  try {
    store?.setItem(storageKey(pane), String(clampWidth(pane, width)));
  } catch {
    // Storage full or refused (private mode): the width still holds until the page reloads.
  }
}
