// The arithmetic of a windowed list: where each item starts given the heights measured so far
// (an estimate for the rest), and which items a viewport at some scroll position shows.

export interface Layout {
  /** offsets[i] is where item i starts; offsets[n] is the height of the whole list. */
  offsets: Float64Array;
}

export function layoutOf(
  keys: readonly string[],
  measured: ReadonlyMap<string, number>,
  estimate: number,
): Layout {
  const offsets = new Float64Array(keys.length + 1);
  for (let i = 0; i < keys.length; i++) {
    offsets[i + 1] = offsets[i]! + (measured.get(keys[i]!) ?? estimate);
  }
  return { offsets };
}

/** The index of the item that covers `y` (the last item if `y` is past the end). */
export function indexAt(layout: Layout, y: number): number {
  const { offsets } = layout;
  const n = offsets.length - 1;
  if (n <= 0) return 0;
  let lo = 0;
  let hi = n - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (offsets[mid]! <= y) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

export interface Range {
  /** First item rendered. */
  start: number;
  /** One past the last item rendered. */
  end: number;
}

/** The items a viewport from `top` of `height` pixels shows, with `overscan` pixels either side. */
export function rangeFor(layout: Layout, top: number, height: number, overscan: number): Range {
  const n = layout.offsets.length - 1;
  if (n <= 0) return { start: 0, end: 0 };
  const start = indexAt(layout, Math.max(0, top - overscan));
  const end = Math.min(n, indexAt(layout, top + height + overscan) + 1);
  return { start, end };
}

/** The average of the heights measured so far: a better guess for the rest than a constant. */
export function averageHeight(measured: ReadonlyMap<string, number>, fallback: number): number {
  if (measured.size === 0) return fallback;
  let sum = 0;
  for (const h of measured.values()) sum += h;
  return sum / measured.size;
}
