// How a conversation reads as Markdown, to keep or share outside the app: its messages in order,
// who wrote each, the tools each answer used, its reasoning folded away, and the text of its
// artifacts where they were made (binary ones are named, with the way to fetch them). The pieces
// are put together as they are read by export-stream.ts.
import { formatBytes } from "../../../../durable-objects/protocol/format-bytes";
import type { ChatMessage, MessagePart } from "../../../../durable-objects/protocol/messages";
import type { Artifact, Conversation } from "../../../../durable-objects/protocol/rest";
import { inertMarkdown } from "./inert-markdown";

/** A name or title on one line, its Markdown and HTML characters shown as they are. */
const plain = (text: string) => text.replace(/\s+/g, " ").replace(/[\\`*_[\]<>!#|~&$]/g, "\\$&");

const STATUS_NOTES: Record<ChatMessage["status"], string | null> = {
  complete: null,
  cancelled: "This answer was stopped before it was finished.",
  interrupted: "This answer was cut off (the service restarted) and not finished.",
  failed: "This answer failed.",
};

const utc = (ms: number) => `${new Date(ms).toISOString().slice(0, 16).replace("T", " ")} UTC`;

/** A code fence longer than any run of backticks in `text`, so the text cannot close it. */
function fenced(text: string, language = ""): string {
  const longest = Math.max(2, ...Array.from(text.matchAll(/`+/g), (m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  return `${fence}${language}\n${text.replace(/\n$/, "")}\n${fence}`;
}

// The fence's language for artifact types whose content is code of one language.
const FENCE_LANGUAGE: Record<string, string> = {
  "application/json": "json",
  "application/vnd.knowledge-graph": "json",
  "application/vnd.bibliography": "json",
  "application/vnd.ant.python": "python",
  "image/svg+xml": "svg",
  "text/html": "html",
  "text/csv": "csv",
};

/**
 * An artifact as a message (or the list of the others) shows it, under its title now (a rename
 * since the answer made it included); `artifact` without it: deleted.
 */
export function artifactMarkdown(
  ref: { title: string; artifactType: string },
  artifact: Artifact | undefined,
): string {
  const heading = `**Artifact: ${plain(artifact?.title ?? ref.title)}** (${plain(ref.artifactType)})`;
  if (!artifact) return `${heading}: deleted since.`;
  if (artifact.content == null)
    return `${heading}: ${artifact.contentType ?? "binary"}, download it from the app (\`GET /api/artifacts/${artifact.id}/download\`).`;
  if (artifact.type === "text/markdown")
    return `${heading}\n\n${inertMarkdown(artifact.content.trim())}`;
  const language = artifact.language ?? FENCE_LANGUAGE[artifact.type] ?? "";
  return `${heading}\n\n${fenced(artifact.content, language)}`;
}

function partBlock(part: MessagePart, artifacts: Map<string, Artifact>): string {
  switch (part.type) {
    case "text":
      return inertMarkdown(part.text.trim());
    case "reasoning":
      return `<details><summary>Reasoning</summary>\n\n${inertMarkdown(part.text.trim())}\n\n</details>`;
    case "tool_call":
      return `- Tool \`${part.server}.${part.tool}\` (${part.status})${part.summary ? `: ${plain(part.summary.trim())}` : ""}`;
    case "artifact":
      return artifactMarkdown(part, artifacts.get(part.artifactId));
    case "attachment":
      return `- Attached: ${plain(part.name)} (${part.contentType}, ${formatBytes(part.size)})${part.deleted ? ", deleted since." : ""}`;
  }
}

function speaker(message: ChatMessage): string {
  if (message.role === "assistant") return "Assistant";
  return plain(message.author?.name ?? "User");
}

/** The document's title and what it is. */
export function markdownHeader(c: Conversation, exportedAt: Date): string {
  const title = plain(c.title.trim()) || "Untitled conversation";
  return `# ${title}\n\n_${c.provider} · ${c.model} · started ${utc(c.createdAt)} · exported ${utc(exportedAt.getTime())}_\n`;
}

/** One message, after a rule; `artifacts` holds those it points at, with their text. */
export function messageMarkdown(message: ChatMessage, artifacts: Map<string, Artifact>): string {
  const blocks = message.content.map((p) => partBlock(p, artifacts)).filter((b) => b !== "");
  const note = STATUS_NOTES[message.status];
  if (note) blocks.push(`_${note}_`);
  return `\n---\n\n### ${speaker(message)} · ${utc(message.createdAt)}\n\n${blocks.join("\n\n")}\n`;
}

/** A file name for the download: the title's letters and digits (any script), or the id. */
export function exportFileName(
  conversation: Pick<Conversation, "id" | "title">,
  extension: string,
): string {
  const base =
    conversation.title
      .normalize("NFKC")
      .replace(/[^\p{L}\p{N}._-]+/gu, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 80) || `conversation-${conversation.id}`;
  return `${base}.${extension}`;
}
