// One viewer per kind of artifact.
import type { ComponentType } from "react";
import { kindOf, type ArtifactKind } from "../artifact-kind";
import { BibliographyViewer } from "./BibliographyViewer";
import { CodeViewer } from "./CodeViewer";
import { ImageViewer } from "./ImageViewer";
import { JsonViewer } from "./JsonViewer";
import { MarkdownViewer } from "./MarkdownViewer";
import { TextViewer } from "./TextViewer";
import type { ViewerProps } from "./viewer-props";

const VIEWERS: Record<ArtifactKind, ComponentType<ViewerProps>> = {
  code: CodeViewer,
  markdown: MarkdownViewer,
  "knowledge-graph": JsonViewer,
  bibliography: BibliographyViewer,
  image: ImageViewer,
  json: JsonViewer,
  text: TextViewer,
};

export function viewerFor(type: string): ComponentType<ViewerProps> {
  return VIEWERS[kindOf(type)];
}
