import type { Artifact } from "../../../../durable-objects/protocol/rest";

/** What every viewer gets: the artifact with its content, and a way to report a saved edit. */
export interface ViewerProps {
  artifact: Artifact;
  onSaved: (artifact: Artifact) => void;
}
