// JSON as a tree: objects and arrays fold open (<details>, so the keyboard and screen readers
// know them without an ARIA tree of our own), values coloured by type. Text that
// does not parse is shown as text, with a note saying so.
import { useState } from "react";
import { TextViewer } from "./TextViewer";
import type { ViewerProps } from "./viewer-props";

// Past this many children a branch shows the first ones and how many more there are.
const MAX_CHILDREN = 500;

export function JsonViewer(props: ViewerProps) {
  const text = props.artifact.content;
  if (text == null) return <TextViewer {...props} />;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return <TextViewer {...props} note="This is not valid JSON, so it is shown as text." />;
  }
  return (
    <div className="json-tree">
      <JsonNode name={null} value={value} depth={0} />
    </div>
  );
}

export function JsonNode(props: { name: string | null; value: unknown; depth: number }) {
  const { name, value } = props;
  const key = name !== null && <span className="json-key">{name}: </span>;
  if (value !== null && typeof value === "object") {
    return <JsonBranch {...props} value={value as object} />;
  }
  return (
    <div className="json-leaf">
      {key}
      <JsonPrimitive value={value} />
    </div>
  );
}

function JsonBranch({ name, value, depth }: { name: string | null; value: object; depth: number }) {
  // Children render only once a branch is open, so a large document costs what is visible.
  const [open, setOpen] = useState(depth < 2);
  const entries: [string, unknown][] = Array.isArray(value)
    ? value.map((v, i) => [String(i), v])
    : Object.entries(value);
  const summary = Array.isArray(value)
    ? `[${entries.length} item${entries.length === 1 ? "" : "s"}]`
    : `{${entries.length} key${entries.length === 1 ? "" : "s"}}`;
  return (
    <details className="json-branch" open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>
        {name !== null && <span className="json-key">{name}: </span>}
        <span className="json-summary">{summary}</span>
      </summary>
      {open && (
        <div className="json-children">
          {entries.slice(0, MAX_CHILDREN).map(([k, v]) => (
            <JsonNode key={k} name={k} value={v} depth={depth + 1} />
          ))}
          {entries.length > MAX_CHILDREN && (
            <div className="json-more">… {entries.length - MAX_CHILDREN} more</div>
          )}
        </div>
      )}
    </details>
  );
}

function JsonPrimitive({ value }: { value: unknown }) {
  if (typeof value === "string")
    return <span className="json-string">{JSON.stringify(value)}</span>;
  if (typeof value === "number") return <span className="json-number">{String(value)}</span>;
  if (typeof value === "boolean") return <span className="json-boolean">{String(value)}</span>;
  return <span className="json-null">null</span>;
}
