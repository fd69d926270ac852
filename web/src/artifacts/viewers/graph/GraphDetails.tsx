// Beside the graph: a filter by node type (with counts and colours) and the selected node's
// type, properties and connections.
import type { GraphLink, GraphNode } from "./parse-graph";
import type { TypeCount } from "./node-colours";

export function TypeFilter(props: {
  types: readonly TypeCount[];
  hidden: ReadonlySet<string>;
  onToggle: (type: string) => void;
  onShowAll: () => void;
}) {
  return (
    <fieldset className="kg-filter">
      <legend>Node types</legend>
      {props.types.map((t) => (
        <label key={t.type}>
          <input
            type="checkbox"
            checked={!props.hidden.has(t.type)}
            onChange={() => props.onToggle(t.type)}
          />
          <span className="kg-swatch" style={{ background: t.colour }} aria-hidden="true" />
          {t.type} <span className="artifact-item-meta">({t.count})</span>
        </label>
      ))}
      {props.hidden.size > 0 && (
        <button type="button" onClick={props.onShowAll}>
          Show all types
        </button>
      )}
    </fieldset>
  );
}

function show(value: unknown): string {
  if (typeof value === "string") return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

export function NodeDetails(props: {
  node: GraphNode | null;
  colour: string | null;
  links: readonly GraphLink[];
  labelOf: (id: string) => string;
  onSelect: (id: string | null) => void;
}) {
  const { node } = props;
  if (!node) {
    return (
      <section className="kg-details" aria-label="Selected node">
        <p className="artifact-note">
          Select a node (click it, or Tab to it and press Enter) to see its properties.
        </p>
      </section>
    );
  }
  const properties = Object.entries(node.properties);
  const connections = props.links.filter((l) => l.source === node.id || l.target === node.id);
  return (
    <section className="kg-details" aria-label="Selected node">
      <div className="artifact-header-row">
        <h3>{node.label}</h3>
        <button
          type="button"
          aria-label="Close the node's details"
          onClick={() => props.onSelect(null)}
        >
          ×
        </button>
      </div>
      <p className="artifact-item-meta">
        {props.colour && (
          <span className="kg-swatch" style={{ background: props.colour }} aria-hidden="true" />
        )}
        {node.type ?? "No type"} · id {node.id}
      </p>
      {properties.length > 0 ? (
        <dl className="kg-properties">
          {properties.map(([k, v]) => (
            <div key={k}>
              <dt>{k}</dt>
              <dd>{show(v)}</dd>
            </div>
          ))}
        </dl>
      ) : (
        <p className="artifact-note">No properties.</p>
      )}
      {connections.length > 0 && (
        <>
          <h4>Connections ({connections.length})</h4>
          <ul className="kg-connections">
            {connections.slice(0, 100).map((l, i) => {
              const out = l.source === node.id;
              const other = out ? l.target : l.source;
              return (
                <li key={i}>
                  <span className="artifact-item-meta">
                    {out ? "→" : "←"} {l.type ?? "linked to"}{" "}
                  </span>
                  <button type="button" className="link" onClick={() => props.onSelect(other)}>
                    {props.labelOf(other)}
                  </button>
                </li>
              );
            })}
          </ul>
        </>
      )}
    </section>
  );
}
