// The artifacts a read-only link serves (those made up to the link), each to open or download
// with the link's token: the page's visitor is not signed in.
import type { Artifact } from "../../../durable-objects/protocol/rest";

export function snapshotArtifactUrl(
  token: string,
  artifactId: string,
  as: "open" | "download",
): string {
  const base = `/api/shared/${encodeURIComponent(token)}/artifacts/${encodeURIComponent(artifactId)}/download`;
  // `inline=1` previews PDFs too; `attachment` always saves the file.
  return as === "open" ? `${base}?inline=1` : `${base}?attachment=1`;
}

export function SnapshotArtifacts(props: { token: string; artifacts: readonly Artifact[] }) {
  if (props.artifacts.length === 0) return null;
  return (
    <section className="shared-artifacts" aria-label="Artifacts">
      <h2>Artifacts</h2>
      <ul>
        {props.artifacts.map((a) => (
          <li key={a.id} data-testid="shared-artifact">
            <span>{a.title}</span>{" "}
            <a
              href={snapshotArtifactUrl(props.token, a.id, "open")}
              target="_blank"
              rel="noreferrer"
            >
              Open
            </a>{" "}
            <a href={snapshotArtifactUrl(props.token, a.id, "download")} download>
              Download
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}
