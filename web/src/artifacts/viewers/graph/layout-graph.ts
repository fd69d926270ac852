// Positions for a graph's nodes from a force simulation run to rest at once (no animation, so
// nothing moves under the reader's pointer and the cost is paid once).
import {
  forceCenter,
  forceCollide,
  forceLink,
  forceManyBody,
  forceSimulation,
  forceX,
  forceY,
  type SimulationLinkDatum,
  type SimulationNodeDatum,
} from "d3-force";
import type { Graph } from "./parse-graph";

export type Point = { x: number; y: number };

interface SimNode extends SimulationNodeDatum {
  id: string;
}

/** What a layout needs of a graph: its node ids and which nodes each link joins. */
export type GraphShape = {
  nodes: readonly Pick<Graph["nodes"][number], "id">[];
  links: readonly Pick<Graph["links"][number], "source" | "target">[];
};

export function layoutGraph(
  graph: GraphShape,
  options: { ticks?: number } = {},
): Map<string, Point> {
  const nodes: SimNode[] = graph.nodes.map((n) => ({ id: n.id }));
  const links: SimulationLinkDatum<SimNode>[] = graph.links
    .filter((l) => l.source !== l.target)
    .map((l) => ({ source: l.source, target: l.target }));
  // Large graphs settle in fewer steps: each step costs n·log n.
  const ticks = options.ticks ?? (nodes.length > 300 ? 150 : 300);
  const simulation = forceSimulation(nodes)
    .alphaDecay(1 - Math.pow(0.001, 1 / ticks))
    .force(
      "link",
      forceLink(links)
        .id((d) => (d as SimNode).id)
        .distance(70),
    )
    .force("charge", forceManyBody().strength(-180).distanceMax(500).theta(0.9))
    .force("collide", forceCollide(16))
    // A gentle pull to the middle keeps separate components near each other, a little more
    // vertically because the view is wider than tall.
    .force("x", forceX(0).strength(0.05))
    .force("y", forceY(0).strength(0.08))
    .force("center", forceCenter(0, 0))
    .stop();
  simulation.tick(ticks);
  const finite = (v: number | undefined) => (v !== undefined && Number.isFinite(v) ? v : 0);
  return new Map(nodes.map((n) => [n.id, { x: finite(n.x), y: finite(n.y) }]));
}

export function boundsOf(points: Iterable<Point>): {
  x: number;
  y: number;
  width: number;
  height: number;
} {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const p of points) {
    minX = Math.min(minX, p.x);
    minY = Math.min(minY, p.y);
    maxX = Math.max(maxX, p.x);
    maxY = Math.max(maxY, p.y);
  }
  if (minX === Infinity) return { x: 0, y: 0, width: 0, height: 0 };
  return { x: minX, y: minY, width: maxX - minX, height: maxY - minY };
}
