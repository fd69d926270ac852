// How each kind of attached file is labelled and marked in a message and in the artifact pane.
import type { AttachmentKind } from "../../../durable-objects/protocol/attachments";

export const KIND_LABELS: Record<AttachmentKind, string> = {
  image: "Image",
  pdf: "PDF",
  text: "Text",
  table: "Table",
  json: "JSON",
};

export const KIND_ICONS: Record<AttachmentKind, string> = {
  image: "🖼️",
  pdf: "📄",
  text: "📝",
  table: "📊",
  json: "🧾",
};

/** Where a PDF or image opens in the browser's own viewer (a new tab), not as a download. */
export const previewUrl = (artifactId: string) =>
  `/api/artifacts/${encodeURIComponent(artifactId)}/download?inline=1`;
