// A colour per node type: mid-tone colours that read on a light and a dark background alike
// (labels carry a halo in the page's background colour, so they do not depend on the fill).
import type { GraphNode } from "./parse-graph";

const PALETTE = [
  "#4e79a7",
  "#f28e2b",
  "#e15759",
  "#76b7b2",
  "#59a14f",
  "#edc948",
  "#b07aa1",
  "#ff9da7",
  "#9c755f",
  "#8cd17d",
];
const UNTYPED = "#9a9aa2";

export const UNTYPED_KEY = "(no type)";
export const typeKey = (n: Pick<GraphNode, "type">) => n.type ?? UNTYPED_KEY;

export interface TypeCount {
  type: string;
  count: number;
  colour: string;
}

/** Node types, most frequent first, each with its colour. */
export function typeCounts(nodes: readonly GraphNode[]): TypeCount[] {
  const counts = new Map<string, number>();
  for (const n of nodes) counts.set(typeKey(n), (counts.get(typeKey(n)) ?? 0) + 1);
  let i = 0;
  return [...counts]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([type, count]) => {
      if (type === UNTYPED_KEY) return { type, count, colour: UNTYPED };
      const colour = PALETTE[i] ?? `hsl(${Math.round((i * 137.5) % 360)} 55% 55%)`;
      i++;
      return { type, count, colour };
    });
}
