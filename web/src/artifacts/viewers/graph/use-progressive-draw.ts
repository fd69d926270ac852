// Draws a large graph a slice per frame instead of all at once: mounting the SVG of 500 nodes
// and 1,500 links in one go held the page's thread for over 100 ms (a visible freeze), while a
// few slices of a few dozen milliseconds each keep it answering.
import { useEffect, useState } from "react";

/** At most this many nodes (with their labels) and links are added to the page per frame. */
export const NODES_PER_FRAME = 50;
export const LINKS_PER_FRAME = 150;

/** How many of the nodes and links to draw now; all of them after a few frames. */
export function useProgressiveDraw(nodes: number, links: number): { nodes: number; links: number } {
  const steps = Math.max(1, Math.ceil(nodes / NODES_PER_FRAME), Math.ceil(links / LINKS_PER_FRAME));
  const [step, setStep] = useState(1);
  useEffect(() => {
    if (step >= steps) return;
    const frame = requestAnimationFrame(() => setStep((s) => s + 1));
    return () => cancelAnimationFrame(frame);
  }, [step, steps]);
  const share = Math.min(1, step / steps);
  return { nodes: Math.ceil(nodes * share), links: Math.ceil(links * share) };
}
