// Which viewer shows an artifact, and the short label the list gives its type.
import {
  BIBLIOGRAPHY,
  CODE,
  KNOWLEDGE_GRAPH,
  MARKDOWN,
  normalizeArtifactType,
} from "../../../durable-objects/loop/artifact-types";
import { ATTACHMENT_ARTIFACT_TYPE } from "../../../durable-objects/protocol/attachments";

export type ArtifactKind =
  | "code"
  | "markdown"
  | "knowledge-graph"
  | "bibliography"
  | "image"
  | "audio"
  | "json"
  | "text"
  | "attachment";

export function kindOf(type: string): ArtifactKind {
  const t = normalizeArtifactType(type);
  if (t === CODE) return "code";
  if (t === MARKDOWN) return "markdown";
  if (t === KNOWLEDGE_GRAPH) return "knowledge-graph";
  if (t === BIBLIOGRAPHY) return "bibliography";
  if (t === ATTACHMENT_ARTIFACT_TYPE) return "attachment";
  if (t.startsWith("image/")) return "image";
  if (t.startsWith("audio/")) return "audio";
  if (t === "application/json" || t.endsWith("+json")) return "json";
  return "text";
}

const LABELS: Record<ArtifactKind, string> = {
  code: "Code",
  markdown: "Document",
  "knowledge-graph": "Knowledge graph",
  bibliography: "Bibliography",
  image: "Image",
  audio: "Audio",
  json: "JSON",
  text: "Text",
  attachment: "Attached file",
};

export function typeLabel(type: string, language?: string | null): string {
  const kind = kindOf(type);
  if (kind === "code" && language) return `Code · ${language}`;
  if (kind === "image") return `Image · ${type.slice("image/".length).replace(/\+xml$/, "")}`;
  return LABELS[kind];
}
