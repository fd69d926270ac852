// One viewer per kind of artifact.
import type { ComponentType } from "react";
import { kindOf, type ArtifactKind } from "../artifact-kind";
import { CodeViewer } from "./CodeViewer";
import { JsonViewer } from "./JsonViewer";
import { MarkdownViewer } from "./MarkdownViewer";
import { TextViewer } from "./TextViewer";
import type { ViewerProps } from "./viewer-props";

const VIEWERS: Record<ArtifactKind, ComponentType<ViewerProps>> = {
  code: CodeViewer,
  markdown: MarkdownViewer,
  "knowledge-graph": JsonViewer,
  bibliography: JsonViewer,
  image: TextViewer,
  json: JsonViewer,
  text: TextViewer,
};

export function viewerFor(type: string): ComponentType<ViewerProps> {
  return VIEWERS[kindOf(type)];
}
