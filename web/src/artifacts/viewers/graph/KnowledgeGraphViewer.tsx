// A knowledge graph to explore: laid out once by a force simulation (a large one in a Web
// Worker, see use-graph-layout.ts), then zoomed, panned, rearranged, filtered by node type, its
// nodes inspected, and exported as SVG or PNG; or read as tables of its nodes and links.
import { useCallback, useMemo, useRef, useState } from "react";
import { fileNameFor } from "../../file-extension";
import { saveBlob, saveText } from "../../save-file";
import { TextViewer } from "../TextViewer";
import type { ViewerProps } from "../viewer-props";
import { exportableSvg, svgToPng } from "./export-graph";
import { GraphCanvas } from "./GraphCanvas";
import { NodeDetails, TypeFilter } from "./GraphDetails";
import { GraphTable } from "./GraphTable";
import type { Point } from "./layout-graph";
import { typeCounts, typeKey } from "./node-colours";
import { parseGraph, type Graph, type GraphNode } from "./parse-graph";
import { useGraphLayout } from "./use-graph-layout";

export function KnowledgeGraphViewer(props: ViewerProps) {
  const content = props.artifact.content;
  const parsed = useMemo(() => (content == null ? null : parseGraph(content)), [content]);
  if (!parsed) return <TextViewer {...props} />;
  if (!parsed.ok) return <TextViewer {...props} note={parsed.message} />;
  if (parsed.graph.nodes.length === 0) {
    return <p className="artifact-note">This knowledge graph is empty: it has no nodes.</p>;
  }
  return (
    <GraphExplorer
      key={content}
      graph={parsed.graph}
      notes={parsed.notes}
      title={props.artifact.title}
    />
  );
}

export function GraphExplorer(props: { graph: Graph; notes: string[]; title: string }) {
  const layout = useGraphLayout(props.graph);
  if (layout.state === "laying-out")
    return (
      <p className="artifact-note" role="status" data-testid="graph-laying-out">
        Laying out {props.graph.nodes.length} nodes…
      </p>
    );
  if (layout.state === "failed")
    return (
      <p role="alert" className="artifact-error">
        The graph could not be laid out: {layout.message} Reopen it to try again.
      </p>
    );
  return <LaidOutGraph {...props} layout={layout.positions} />;
}

function LaidOutGraph({
  graph,
  notes,
  title,
  layout,
}: {
  graph: Graph;
  notes: string[];
  title: string;
  layout: Map<string, Point>;
}) {
  const [positions, setPositions] = useState(layout);
  const [hidden, setHidden] = useState<ReadonlySet<string>>(() => new Set());
  const [selected, setSelected] = useState<string | null>(null);
  const [exportError, setExportError] = useState<string | null>(null);
  const [asTable, setAsTable] = useState(false);
  const svgRef = useRef<SVGSVGElement | null>(null);

  const types = useMemo(() => typeCounts(graph.nodes), [graph]);
  const colours = useMemo(() => new Map(types.map((t) => [t.type, t.colour])), [types]);
  const byId = useMemo(() => new Map(graph.nodes.map((n) => [n.id, n])), [graph]);
  const radius = useMemo(() => {
    const degree = new Map<string, number>();
    for (const l of graph.links) {
      degree.set(l.source, (degree.get(l.source) ?? 0) + 1);
      degree.set(l.target, (degree.get(l.target) ?? 0) + 1);
    }
    return (id: string) => 6 + Math.min(8, Math.sqrt(degree.get(id) ?? 0) * 1.5);
  }, [graph]);

  const nodes = useMemo(() => graph.nodes.filter((n) => !hidden.has(typeKey(n))), [graph, hidden]);
  const links = useMemo(() => {
    const shown = new Set(nodes.map((n) => n.id));
    return graph.links.filter((l) => shown.has(l.source) && shown.has(l.target));
  }, [graph, nodes]);
  const neighbours = useMemo(() => {
    const s = new Set<string>();
    if (selected) {
      for (const l of links) {
        if (l.source === selected) s.add(l.target);
        if (l.target === selected) s.add(l.source);
      }
    }
    return s;
  }, [links, selected]);

  const labelOf = useCallback((id: string) => byId.get(id)?.label ?? id, [byId]);
  const colourOf = useCallback((n: GraphNode) => colours.get(typeKey(n)) ?? "#999", [colours]);
  const onMove = useCallback(
    (id: string, p: Point) => setPositions((cur) => new Map(cur).set(id, p)),
    [],
  );
  const toggle = (type: string) =>
    setHidden((cur) => {
      const next = new Set(cur);
      if (!next.delete(type)) next.add(type);
      return next;
    });

  const exportAs = async (format: "svg" | "png") => {
    const svg = svgRef.current;
    if (!svg) return;
    setExportError(null);
    try {
      const file = exportableSvg(
        svg,
        nodes.map((n) => ({
          ...(positions.get(n.id) ?? { x: 0, y: 0 }),
          r: radius(n.id),
          text: n.label,
        })),
      );
      if (format === "svg") saveText(file.text, fileNameFor(title, "svg"), "image/svg+xml");
      else saveBlob(await svgToPng(file.text, file.width, file.height), fileNameFor(title, "png"));
    } catch (err) {
      setExportError(
        `The ${format.toUpperCase()} could not be made: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
  };

  const selectedNode = selected ? (byId.get(selected) ?? null) : null;
  return (
    <div className="kg">
      <div className="artifact-toolbar">
        <span className="artifact-item-meta">
          {nodes.length} of {graph.nodes.length} nodes · {links.length} links
        </span>
        <button type="button" aria-pressed={asTable} onClick={() => setAsTable((t) => !t)}>
          Table view
        </button>
        {/* Exports draw the canvas, which the table view does not show. */}
        {!asTable && (
          <>
            <button type="button" onClick={() => exportAs("svg")}>
              Export SVG
            </button>
            <button type="button" onClick={() => exportAs("png")}>
              Export PNG
            </button>
          </>
        )}
      </div>
      {notes.map((n) => (
        <p key={n} className="artifact-note">
          {n}
        </p>
      ))}
      {exportError && (
        <p role="alert" className="artifact-error">
          {exportError}
        </p>
      )}
      <div className="kg-body">
        {asTable ? (
          <GraphTable
            nodes={nodes}
            links={links}
            labelOf={labelOf}
            selected={selected}
            onSelect={setSelected}
          />
        ) : (
          <GraphCanvas
            svgRef={svgRef}
            nodes={nodes}
            links={links}
            positions={positions}
            colourOf={colourOf}
            radiusOf={radius}
            selected={selected}
            neighbours={neighbours}
            onSelect={setSelected}
            onMove={onMove}
          />
        )}
        <div className="kg-side">
          <TypeFilter
            types={types}
            hidden={hidden}
            onToggle={toggle}
            onShowAll={() => setHidden(new Set())}
          />
          <NodeDetails
            node={selectedNode}
            colour={selectedNode ? colourOf(selectedNode) : null}
            links={graph.links}
            labelOf={labelOf}
            onSelect={setSelected}
          />
        </div>
      </div>
    </div>
  );
}
