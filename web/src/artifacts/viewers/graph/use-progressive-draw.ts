// Draws a large graph a slice per frame instead of all at once: mounting the SVG of 500 nodes
// and 1,500 links in one go held the page's thread for over 100 ms (a visible freeze), while a
// few slices of a few dozen milliseconds each keep it answering. The slices are fixed (the same
// lists each frame), so a frame renders its new slice and React skips the ones already drawn.
import { useEffect, useMemo, useState } from "react";

/** At most this many nodes (with their labels) and links are added to the page per frame. */
export const NODES_PER_FRAME = 50;
export const LINKS_PER_FRAME = 150;

/** The list in `steps` consecutive parts of near-equal size (some may be empty). */
export function slicesOf<T>(items: readonly T[], steps: number): (readonly T[])[] {
  return Array.from({ length: steps }, (_, i) =>
    items.slice(Math.ceil((items.length * i) / steps), Math.ceil((items.length * (i + 1)) / steps)),
  );
}

/** The nodes' and links' slices to draw now: one more each frame until all are drawn. */
export function useProgressiveDraw<N, L>(
  nodes: readonly N[],
  links: readonly L[],
): { nodes: (readonly N[])[]; links: (readonly L[])[] } {
  const steps = Math.max(
    1,
    Math.ceil(nodes.length / NODES_PER_FRAME),
    Math.ceil(links.length / LINKS_PER_FRAME),
  );
  const nodeSlices = useMemo(() => slicesOf(nodes, steps), [nodes, steps]);
  const linkSlices = useMemo(() => slicesOf(links, steps), [links, steps]);
  // The first frame draws none of a graph that takes several: it mounts the viewer (its lists,
  // filters and sizes), which is a frame's work of its own.
  const [step, setStep] = useState(steps > 1 ? 0 : 1);
  useEffect(() => {
    if (step >= steps) return;
    const frame = requestAnimationFrame(() => setStep((s) => s + 1));
    return () => cancelAnimationFrame(frame);
  }, [step, steps]);
  return { nodes: nodeSlices.slice(0, step), links: linkSlices.slice(0, step) };
}
