// What the main thread and the layout worker say to each other: a graph's shape goes in, one
// position per node comes out. Both sides parse what they receive.
import { z } from "zod";
import { layoutGraph, type GraphShape, type Point } from "./layout-graph";

export const LayoutRequest = z.object({
  nodes: z.array(z.object({ id: z.string() })),
  links: z.array(z.object({ source: z.string(), target: z.string() })),
});

export const LayoutAnswer = z.union([
  z.object({
    ok: z.literal(true),
    positions: z.array(z.tuple([z.string(), z.number(), z.number()])),
  }),
  z.object({ ok: z.literal(false), message: z.string() }),
]);
export type LayoutAnswer = z.infer<typeof LayoutAnswer>;

export function requestFor(graph: GraphShape): z.infer<typeof LayoutRequest> {
  return {
    nodes: graph.nodes.map((n) => ({ id: n.id })),
    links: graph.links.map((l) => ({ source: l.source, target: l.target })),
  };
}

/** The worker's job, kept apart from the worker's globals so it can be tested anywhere. */
export function answerLayoutRequest(data: unknown): LayoutAnswer {
  const request = LayoutRequest.safeParse(data);
  if (!request.success) return { ok: false, message: "The graph sent for layout was malformed." };
  try {
    const positions = layoutGraph(request.data);
    return { ok: true, positions: [...positions].map(([id, p]) => [id, p.x, p.y]) };
  } catch (err) {
    return { ok: false, message: err instanceof Error ? err.message : String(err) };
  }
}

export function positionsOf(answer: Extract<LayoutAnswer, { ok: true }>): Map<string, Point> {
  return new Map(answer.positions.map(([id, x, y]) => [id, { x, y }]));
}
