// Bounds on what a tool passes on from an outside service: never more items than were asked
// for, no field longer than a reader needs, and the whole structured result under a budget, so
// one odd upstream answer cannot flood a model's context.
import type { Graph } from "./graph/store";

/** Largest structured result a tool returns, in JSON characters. */
export const MAX_RESULT_CHARS = 200_000;

export function clip(value: string, max: number): string {
  return value.length > max ? `${value.slice(0, max - 1)}…` : value;
}

/** At most `maxItems` strings, each clipped to `maxChars`. */
export const clipList = (values: string[], maxItems: number, maxChars: number) =>
  values.slice(0, maxItems).map((v) => clip(v, maxChars));

/** The longest prefix of `items` whose JSON array fits in `budget` characters. */
export function fitting<T>(items: T[], budget: number): T[] {
  let used = 2;
  const kept: T[] = [];
  for (const item of items) {
    used += JSON.stringify(item).length + 1;
    if (used > budget) break;
    kept.push(item);
  }
  return kept;
}

/** The note a summary gets when items were left out to stay within the budget. */
export const leftOut = (count: number, what: string) =>
  count > 0
    ? ` ${count} more ${what} left out to keep the result under ${MAX_RESULT_CHARS / 1000}k characters.`
    : "";

/**
 * A graph within `budget`: nodes first (in the order given, so callers put the important ones
 * first) in up to half of it, then the links between kept nodes in what is left.
 */
export function fitGraph(graph: Graph, budget: number): { graph: Graph; dropped: number } {
  const nodes = fitting(graph.nodes, budget / 2);
  const ids = new Set(nodes.map((n) => n.id));
  const links = fitting(
    graph.links.filter((l) => ids.has(l.source) && ids.has(l.target)),
    budget - JSON.stringify(nodes).length - 20,
  );
  const dropped = graph.nodes.length - nodes.length + (graph.links.length - links.length);
  return { graph: { nodes, links }, dropped };
}
