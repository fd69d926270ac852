// The graph drawn as SVG: wheel and buttons zoom, dragging the background pans, dragging a
// node moves it, a click or Enter on a node selects it. Nodes and links are memoised so that
// moving one node redraws that node and its links, not the whole graph; a large graph is first
// drawn a slice per frame (use-progressive-draw.ts).
import {
  memo,
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type KeyboardEvent as ReactKeyboardEvent,
  type PointerEvent as ReactPointerEvent,
  type RefObject,
} from "react";
import { boundsOf, type Point } from "./layout-graph";
import { graphStyle, PAGE_COLOURS, shortLabel } from "./graph-style";
import type { GraphLink, GraphNode } from "./parse-graph";
import { useProgressiveDraw } from "./use-progressive-draw";

export const VIEW_WIDTH = 800;
export const VIEW_HEIGHT = 560;
const FIT_PAD = 40;
const MIN_ZOOM = 0.05;
const MAX_ZOOM = 8;
// Below this zoom, link labels would be unreadable clutter.
const LINK_LABEL_ZOOM = 0.7;
// Below this zoom, node labels (under 5 px high) and arrowheads are specks; painting them for a
// large graph zoomed out to fit was most of the time it took to open (a freeze over 50 ms).
const DETAIL_ZOOM = 0.45;

export interface Transform {
  x: number;
  y: number;
  k: number;
}

export function fitTransform(points: Iterable<Point>): Transform {
  const b = boundsOf(points);
  const k = Math.min(
    2,
    Math.max(
      MIN_ZOOM,
      Math.min(
        (VIEW_WIDTH - 2 * FIT_PAD) / Math.max(b.width, 1),
        (VIEW_HEIGHT - 2 * FIT_PAD) / Math.max(b.height, 1),
      ),
    ),
  );
  return {
    k,
    x: VIEW_WIDTH / 2 - (b.x + b.width / 2) * k,
    y: VIEW_HEIGHT / 2 - (b.y + b.height / 2) * k,
  };
}

export function zoomAt(t: Transform, p: Point, factor: number): Transform {
  const k = Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, t.k * factor));
  const ratio = k / t.k;
  return { k, x: p.x - (p.x - t.x) * ratio, y: p.y - (p.y - t.y) * ratio };
}

function toSvgPoint(svg: SVGSVGElement, clientX: number, clientY: number): Point {
  const m = svg.getScreenCTM();
  if (!m) return { x: clientX, y: clientY };
  const p = new DOMPoint(clientX, clientY).matrixTransform(m.inverse());
  return { x: p.x, y: p.y };
}

type Drag =
  | { kind: "pan"; start: Point; from: Transform; moved: boolean }
  | { kind: "node"; id: string; start: Point; offset: Point; moved: boolean };

export interface GraphCanvasProps {
  svgRef: RefObject<SVGSVGElement | null>;
  nodes: readonly GraphNode[];
  links: readonly GraphLink[];
  positions: ReadonlyMap<string, Point>;
  colourOf: (node: GraphNode) => string;
  radiusOf: (id: string) => number;
  selected: string | null;
  neighbours: ReadonlySet<string>;
  onSelect: (id: string | null) => void;
  onMove: (id: string, p: Point) => void;
}

export function GraphCanvas(props: GraphCanvasProps) {
  const { svgRef, positions, onSelect, onMove } = props;
  const [t, setT] = useState<Transform>(() =>
    fitTransform(props.nodes.map((n) => positions.get(n.id) ?? { x: 0, y: 0 })),
  );
  // Pointer handlers read the latest transform and positions without being recreated.
  const tRef = useRef(t);
  const positionsRef = useRef(positions);
  useLayoutEffect(() => {
    tRef.current = t;
    positionsRef.current = positions;
  });
  const drag = useRef<Drag | null>(null);
  const markerId = `kg-arrow-${useId().replace(/[^\w-]/g, "")}`;

  useEffect(() => {
    const svg = svgRef.current;
    if (!svg) return;
    // React's wheel listener is passive; zooming must stop the page from scrolling.
    const onWheel = (e: WheelEvent) => {
      e.preventDefault();
      const p = toSvgPoint(svg, e.clientX, e.clientY);
      setT((cur) => zoomAt(cur, p, Math.exp(-e.deltaY * 0.0015)));
    };
    svg.addEventListener("wheel", onWheel, { passive: false });
    return () => svg.removeEventListener("wheel", onWheel);
  }, [svgRef]);

  const zoomCentre = (factor: number) =>
    setT((cur) => zoomAt(cur, { x: VIEW_WIDTH / 2, y: VIEW_HEIGHT / 2 }, factor));
  const fit = () =>
    setT(fitTransform(props.nodes.map((n) => positions.get(n.id) ?? { x: 0, y: 0 })));

  const startNodeDrag = useCallback(
    (id: string, e: ReactPointerEvent) => {
      const svg = svgRef.current;
      if (!svg || e.button !== 0) return;
      e.stopPropagation();
      const sp = toSvgPoint(svg, e.clientX, e.clientY);
      const cur = tRef.current;
      const pos = positionsRef.current.get(id) ?? { x: 0, y: 0 };
      drag.current = {
        kind: "node",
        id,
        start: sp,
        offset: { x: pos.x - (sp.x - cur.x) / cur.k, y: pos.y - (sp.y - cur.y) / cur.k },
        moved: false,
      };
      svg.setPointerCapture(e.pointerId);
    },
    [svgRef],
  );

  const onPointerDown = (e: ReactPointerEvent<SVGSVGElement>) => {
    if (e.button !== 0) return;
    const sp = toSvgPoint(e.currentTarget, e.clientX, e.clientY);
    drag.current = { kind: "pan", start: sp, from: tRef.current, moved: false };
    e.currentTarget.setPointerCapture(e.pointerId);
  };

  const onPointerMove = (e: ReactPointerEvent<SVGSVGElement>) => {
    const d = drag.current;
    if (!d) return;
    const sp = toSvgPoint(e.currentTarget, e.clientX, e.clientY);
    if (!d.moved && Math.hypot(sp.x - d.start.x, sp.y - d.start.y) < 3) return;
    d.moved = true;
    if (d.kind === "pan") {
      setT({ ...d.from, x: d.from.x + sp.x - d.start.x, y: d.from.y + sp.y - d.start.y });
    } else {
      const cur = tRef.current;
      onMove(d.id, {
        x: (sp.x - cur.x) / cur.k + d.offset.x,
        y: (sp.y - cur.y) / cur.k + d.offset.y,
      });
    }
  };

  const onPointerUp = () => {
    const d = drag.current;
    drag.current = null;
    if (!d || d.moved) return;
    onSelect(d.kind === "node" ? d.id : null);
  };

  const onKeyDown = (e: ReactKeyboardEvent<SVGSVGElement>) => {
    if (e.target !== e.currentTarget) return;
    const pan = (dx: number, dy: number) =>
      setT((cur) => ({ ...cur, x: cur.x + dx, y: cur.y + dy }));
    const keys: Record<string, () => void> = {
      ArrowLeft: () => pan(40, 0),
      ArrowRight: () => pan(-40, 0),
      ArrowUp: () => pan(0, 40),
      ArrowDown: () => pan(0, -40),
      "+": () => zoomCentre(1.25),
      "=": () => zoomCentre(1.25),
      "-": () => zoomCentre(0.8),
      "0": fit,
    };
    const action = keys[e.key];
    if (action) {
      e.preventDefault();
      action();
    }
  };

  const showLinkLabels = t.k >= LINK_LABEL_ZOOM;
  const showDetail = t.k >= DETAIL_ZOOM;
  const drawn = useProgressiveDraw(props.nodes, props.links);
  return (
    <div className="kg-canvas">
      <div className="artifact-toolbar" role="group" aria-label="Zoom">
        <button type="button" aria-label="Zoom in" onClick={() => zoomCentre(1.25)}>
          +
        </button>
        <button type="button" aria-label="Zoom out" onClick={() => zoomCentre(0.8)}>
          −
        </button>
        <button type="button" onClick={fit}>
          Fit
        </button>
        <span className="artifact-item-meta">{Math.round(t.k * 100)}%</span>
      </div>
      <svg
        ref={svgRef}
        className="kg-svg"
        viewBox={`0 0 ${VIEW_WIDTH} ${VIEW_HEIGHT}`}
        role="group"
        aria-label="Knowledge graph: drag to pan, arrow keys pan, + and − zoom"
        tabIndex={0}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={() => (drag.current = null)}
        onKeyDown={onKeyDown}
      >
        <style>{graphStyle(PAGE_COLOURS)}</style>
        <defs>
          <marker
            id={markerId}
            viewBox="0 -4 8 8"
            refX="8"
            refY="0"
            markerWidth="7"
            markerHeight="7"
            orient="auto"
          >
            <path className="kg-arrow" d="M0,-4L8,0L0,4" />
          </marker>
        </defs>
        <rect
          className="kg-background"
          width={VIEW_WIDTH}
          height={VIEW_HEIGHT}
          fill="transparent"
        />
        <g className="kg-viewport" transform={`translate(${t.x},${t.y}) scale(${t.k})`}>
          <g className="kg-links">
            {drawn.links.map((slice, i) => (
              <LinkSlice
                key={i}
                links={slice}
                positions={positions}
                radiusOf={props.radiusOf}
                labels={showLinkLabels}
                marker={showDetail ? markerId : null}
              />
            ))}
          </g>
          {/* Labels under every circle: a long label never takes a click meant for a node. */}
          <g className="kg-labels">
            {showDetail &&
              drawn.nodes.map((slice, i) => (
                <LabelSlice
                  key={i}
                  nodes={slice}
                  positions={positions}
                  radiusOf={props.radiusOf}
                  onPointerDown={startNodeDrag}
                />
              ))}
          </g>
          <g className="kg-nodes">
            {drawn.nodes.map((slice, i) => (
              <NodeSlice
                key={i}
                nodes={slice}
                positions={positions}
                radiusOf={props.radiusOf}
                colourOf={props.colourOf}
                selected={props.selected}
                neighbours={props.neighbours}
                onPointerDown={startNodeDrag}
                onSelect={onSelect}
              />
            ))}
          </g>
        </g>
      </svg>
    </div>
  );
}

const round = (v: number) => Math.round(v * 10) / 10;

// One slice of the progressive draw each (see use-progressive-draw.ts): a frame that adds a
// slice re-renders only it, as long as what the slices share is unchanged.
const NodeSlice = memo(function NodeSlice(props: {
  nodes: readonly GraphNode[];
  positions: ReadonlyMap<string, Point>;
  radiusOf: (id: string) => number;
  colourOf: (node: GraphNode) => string;
  selected: string | null;
  neighbours: ReadonlySet<string>;
  onPointerDown: (id: string, e: ReactPointerEvent) => void;
  onSelect: (id: string) => void;
}) {
  return props.nodes.map((n) => {
    const p = props.positions.get(n.id) ?? { x: 0, y: 0 };
    return (
      <NodeView
        key={n.id}
        node={n}
        x={p.x}
        y={p.y}
        r={props.radiusOf(n.id)}
        colour={props.colourOf(n)}
        selected={props.selected === n.id}
        neighbour={props.neighbours.has(n.id)}
        onPointerDown={props.onPointerDown}
        onSelect={props.onSelect}
      />
    );
  });
});

const LabelSlice = memo(function LabelSlice(props: {
  nodes: readonly GraphNode[];
  positions: ReadonlyMap<string, Point>;
  radiusOf: (id: string) => number;
  onPointerDown: (id: string, e: ReactPointerEvent) => void;
}) {
  return props.nodes.map((n) => {
    const p = props.positions.get(n.id) ?? { x: 0, y: 0 };
    return (
      <NodeLabel
        key={n.id}
        node={n}
        x={p.x}
        y={p.y}
        r={props.radiusOf(n.id)}
        onPointerDown={props.onPointerDown}
      />
    );
  });
});

const LinkSlice = memo(function LinkSlice(props: {
  links: readonly GraphLink[];
  positions: ReadonlyMap<string, Point>;
  radiusOf: (id: string) => number;
  labels: boolean;
  marker: string | null;
}) {
  return props.links.map((l, i) => {
    const a = props.positions.get(l.source);
    const b = props.positions.get(l.target);
    if (!a || !b) return null;
    return (
      <LinkView
        key={i}
        x1={a.x}
        y1={a.y}
        x2={b.x}
        y2={b.y}
        gap={props.radiusOf(l.target) + 2}
        label={props.labels ? l.type : null}
        marker={props.marker}
      />
    );
  });
});

const NodeView = memo(function NodeView(props: {
  node: GraphNode;
  x: number;
  y: number;
  r: number;
  colour: string;
  selected: boolean;
  neighbour: boolean;
  onPointerDown: (id: string, e: ReactPointerEvent) => void;
  onSelect: (id: string) => void;
}) {
  const { node } = props;
  return (
    <g
      className={`kg-node${props.selected ? " selected" : ""}${props.neighbour ? " neighbour" : ""}`}
      data-testid="graph-node"
      data-node-id={node.id}
      role="button"
      tabIndex={0}
      aria-label={node.label}
      aria-pressed={props.selected}
      transform={`translate(${round(props.x)},${round(props.y)})`}
      onPointerDown={(e) => props.onPointerDown(node.id, e)}
      onKeyDown={(e) => {
        if (e.key === "Enter" || e.key === " ") {
          e.preventDefault();
          props.onSelect(node.id);
        }
      }}
    >
      <title>{node.type ? `${node.label} (${node.type})` : node.label}</title>
      <circle r={props.r} fill={props.colour} />
    </g>
  );
});

/** A node's label; it takes clicks and drags for its node, beneath every circle. */
const NodeLabel = memo(function NodeLabel(props: {
  node: GraphNode;
  x: number;
  y: number;
  r: number;
  onPointerDown: (id: string, e: ReactPointerEvent) => void;
}) {
  const { node } = props;
  const label = shortLabel(node.label);
  return (
    <g
      className="kg-label"
      aria-hidden="true"
      transform={`translate(${round(props.x)},${round(props.y)})`}
      onPointerDown={(e) => props.onPointerDown(node.id, e)}
    >
      <rect
        className="kg-hit"
        x={props.r}
        y={-props.r}
        width={6 + label.length * 7}
        height={2 * props.r}
        fill="transparent"
      />
      <text x={props.r + 4} dy="0.35em">
        {label}
      </text>
    </g>
  );
});

const LinkView = memo(function LinkView(props: {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  gap: number;
  label: string | null;
  marker: string | null;
}) {
  const { x1, y1, x2, y2 } = props;
  const len = Math.hypot(x2 - x1, y2 - y1) || 1;
  // End the line at the target's edge so the arrowhead shows.
  const ex = x2 - ((x2 - x1) / len) * props.gap;
  const ey = y2 - ((y2 - y1) / len) * props.gap;
  return (
    <>
      <line
        className="kg-link"
        x1={round(x1)}
        y1={round(y1)}
        x2={round(ex)}
        y2={round(ey)}
        markerEnd={props.marker ? `url(#${props.marker})` : undefined}
      />
      {props.label && (
        <text className="kg-link-label" x={round((x1 + x2) / 2)} y={round((y1 + y2) / 2)}>
          {shortLabel(props.label)}
        </text>
      )}
    </>
  );
});
