// The knowledge graph as two tables, nodes and links: what a screen reader or keyboard user
// reads instead of the drawing, and a quicker way to scan a large graph for anyone.
import type { GraphLink, GraphNode } from "./parse-graph";

/** Rows shown per table; more would make the pane slow to render and to read. */
export const TABLE_ROW_LIMIT = 500;

function propertiesText(properties: Record<string, unknown>): string {
  return Object.entries(properties)
    .map(([k, v]) => `${k}: ${typeof v === "string" ? v : JSON.stringify(v)}`)
    .join("; ");
}

function LimitNote({ shown, total, what }: { shown: number; total: number; what: string }) {
  if (shown >= total) return null;
  return (
    <p className="artifact-note">
      Showing the first {shown} of {total} {what}. Hide node types to narrow the table.
    </p>
  );
}

export function GraphTable(props: {
  nodes: readonly GraphNode[];
  links: readonly GraphLink[];
  labelOf: (id: string) => string;
  selected: string | null;
  onSelect: (id: string) => void;
}) {
  const degree = new Map<string, number>();
  for (const l of props.links) {
    degree.set(l.source, (degree.get(l.source) ?? 0) + 1);
    degree.set(l.target, (degree.get(l.target) ?? 0) + 1);
  }
  const nodes = props.nodes.slice(0, TABLE_ROW_LIMIT);
  const links = props.links.slice(0, TABLE_ROW_LIMIT);
  const nodeButton = (id: string) => (
    <button
      type="button"
      className="link"
      aria-pressed={props.selected === id}
      onClick={() => props.onSelect(id)}
    >
      {props.labelOf(id)}
    </button>
  );
  return (
    // Focusable so the keyboard can scroll it; labelled so screen readers name the region.
    <div className="kg-tables" role="region" aria-label="Graph as tables" tabIndex={0}>
      <table className="kg-table">
        <caption>Nodes ({props.nodes.length})</caption>
        <thead>
          <tr>
            <th scope="col">Node</th>
            <th scope="col">Type</th>
            <th scope="col">Links</th>
            <th scope="col">Properties</th>
          </tr>
        </thead>
        <tbody>
          {nodes.map((n) => (
            <tr key={n.id}>
              <th scope="row">{nodeButton(n.id)}</th>
              <td>{n.type ?? "—"}</td>
              <td>{degree.get(n.id) ?? 0}</td>
              <td>{propertiesText(n.properties)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <LimitNote shown={nodes.length} total={props.nodes.length} what="nodes" />
      <table className="kg-table">
        <caption>Links ({props.links.length})</caption>
        <thead>
          <tr>
            <th scope="col">From</th>
            <th scope="col">Link</th>
            <th scope="col">To</th>
          </tr>
        </thead>
        <tbody>
          {links.map((l, i) => (
            <tr key={i}>
              <td>{nodeButton(l.source)}</td>
              <td>{l.type ?? "linked to"}</td>
              <td>{nodeButton(l.target)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <LimitNote shown={links.length} total={props.links.length} what="links" />
      {props.links.length === 0 && <p className="artifact-note">No links between these nodes.</p>}
    </div>
  );
}
