// One viewer per kind of artifact. The knowledge graph's (with d3-force) loads only when a
// graph is opened, so the first page stays small.
import { Suspense, type ComponentType } from "react";
import { kindOf, type ArtifactKind } from "../artifact-kind";
import { AttachmentViewer } from "./AttachmentViewer";
import { AudioViewer } from "./AudioViewer";
import { BibliographyViewer } from "./BibliographyViewer";
import { CodeViewer } from "./CodeViewer";
import { ImageViewer } from "./ImageViewer";
import { JsonViewer } from "./JsonViewer";
import { MarkdownViewer } from "./MarkdownViewer";
import { TextViewer } from "./TextViewer";
import type { ViewerProps } from "./viewer-props";
import { lazyNamed } from "../../ui/lazy-named";

const KnowledgeGraphViewer = lazyNamed(
  () => import("./graph/KnowledgeGraphViewer"),
  "KnowledgeGraphViewer",
);

function LazyKnowledgeGraphViewer(props: ViewerProps) {
  return (
    <Suspense fallback={<p className="artifact-note">Loading the graph viewer…</p>}>
      <KnowledgeGraphViewer {...props} />
    </Suspense>
  );
}

const VIEWERS: Record<ArtifactKind, ComponentType<ViewerProps>> = {
  code: CodeViewer,
  markdown: MarkdownViewer,
  "knowledge-graph": LazyKnowledgeGraphViewer,
  bibliography: BibliographyViewer,
  image: ImageViewer,
  audio: AudioViewer,
  json: JsonViewer,
  text: TextViewer,
  attachment: AttachmentViewer,
};

export function viewerFor(type: string): ComponentType<ViewerProps> {
  return VIEWERS[kindOf(type)];
}
