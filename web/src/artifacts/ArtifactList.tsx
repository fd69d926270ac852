// The conversation's artifacts, pinned ones first; each opens in the pane.
import type { Artifact } from "../../../durable-objects/protocol/rest";
import { typeLabel } from "./artifact-kind";

export function sortArtifacts(items: readonly Artifact[]): Artifact[] {
  return [...items].sort(
    (a, b) =>
      Number(b.pinned) - Number(a.pinned) || a.position - b.position || a.createdAt - b.createdAt,
  );
}

export function ArtifactList(props: { items: readonly Artifact[]; onOpen: (id: string) => void }) {
  if (props.items.length === 0) {
    return <p className="artifact-note">No artifacts in this conversation yet.</p>;
  }
  return (
    <ul className="artifact-list">
      {sortArtifacts(props.items).map((a) => (
        <li key={a.id}>
          <button
            type="button"
            className="artifact-item"
            data-artifact-id={a.id}
            onClick={() => props.onOpen(a.id)}
          >
            <span className="artifact-item-title">{a.title}</span>
            <span className="artifact-item-meta">
              {a.pinned && <span className="artifact-pinned-mark">Pinned · </span>}
              {typeLabel(a.type, a.language)}
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}
