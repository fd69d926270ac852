// Turns an MCP tool result into what the model sees, what the user is told, and artifacts.
import { z } from "zod";
import { fromBase64 } from "../../shared/base64";
import { mediaTypeOr, rasterImageType } from "../../shared/media-type";
import type { NeutralPart } from "../providers/types";
import { BIBLIOGRAPHY, KNOWLEDGE_GRAPH, normalizeArtifactType } from "./artifact-types";
import { asKnowledgeGraph, type KnowledgeGraph } from "./knowledge-graph";

const ContentItem = z
  .object({
    type: z.string(),
    text: z.string().optional(),
    data: z.string().optional(),
    mimeType: z.string().optional(),
    uri: z.string().optional(),
    name: z.string().optional(),
    title: z.string().optional(),
    description: z.string().optional(),
    resource: z
      .object({
        uri: z.string(),
        // Not the spec's fields, but servers often name what they embed.
        name: z.string().optional(),
        title: z.string().optional(),
        mimeType: z.string().optional(),
        text: z.string().optional(),
        blob: z.string().optional(),
      })
      .passthrough()
      .optional(),
  })
  .passthrough();

export const ToolResult = z
  .object({
    content: z.array(ContentItem).default([]),
    structuredContent: z.unknown().optional(),
    isError: z.boolean().optional(),
    // Reference extensions some servers send beside the MCP fields.
    artifacts: z.array(z.unknown()).optional(),
    bibliography: z.array(z.unknown()).optional(),
  })
  .passthrough();
export type ToolResult = z.infer<typeof ToolResult>;

export interface DraftArtifact {
  type: string;
  title: string;
  /** Text content, or undefined for binaries. */
  content?: string;
  bytes?: Uint8Array;
  contentType?: string;
  language?: string;
  metadata?: Record<string, unknown>;
}

export interface ProcessedResult {
  forModel: Extract<NeutralPart, { type: "tool_result" }>["content"];
  summary: string;
  isError: boolean;
  artifacts: DraftArtifact[];
  graphs: KnowledgeGraph[];
}

/** Text longer than this becomes an artifact (and the model still sees it in full, up to MODEL_TEXT_CHARS). */
const LONG_TEXT = 4000;
const MODEL_TEXT_CHARS = 60_000;
const MODEL_IMAGE_BYTES = 1_500_000;

const ReferenceArtifact = z.object({
  type: z.string(),
  title: z.string().default("Artifact"),
  content: z.union([z.string(), z.record(z.string(), z.unknown()), z.array(z.unknown())]),
  language: z.string().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});

/**
 * A resource's name from its address: the last segment ("page.html"), with the segments before it
 * while it holds no letter, since "1" of ".../text/1" says nothing ("text/1"); at most three.
 */
export function nameFromUri(uri: string): string {
  const path = uri.replace(/[?#].*$/s, "").replace(/^[a-z][a-z0-9+.-]*:\/*/i, "");
  const segments = path.split("/").filter((p) => p.trim() !== "");
  const picked: string[] = [];
  for (const segment of segments.reverse()) {
    picked.unshift(decoded(segment));
    if (/\p{L}/u.test(segment) || picked.length === 3) break;
  }
  return picked.join("/");
}

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export function processToolResult(raw: unknown, toolName: string): ProcessedResult {
  const parsed = ToolResult.safeParse(raw);
  if (!parsed.success) {
    return {
      forModel: [
        { type: "text", text: "The tool returned a result that is not a valid MCP tool result." },
      ],
      summary: "invalid result from the tool",
      isError: true,
      artifacts: [],
      graphs: [],
    };
  }
  const result = parsed.data;
  const forModel: ProcessedResult["forModel"] = [];
  const artifacts: DraftArtifact[] = [];
  const graphs: KnowledgeGraph[] = [];
  let modelChars = 0;
  /** Characters the model is not shown: the user still gets them, as artifacts. */
  let leftOut = 0;
  const addText = (text: string) => {
    const room = MODEL_TEXT_CHARS - modelChars;
    if (room <= 0) return void (leftOut += text.length);
    if (text.length > room) leftOut += text.length - room;
    const piece = text.length > room ? `${text.slice(0, room)}\n… (truncated)` : text;
    modelChars += piece.length;
    forModel.push({ type: "text", text: piece });
  };
  // The tool's text, kept whole for the artifact that holds what the model was not shown.
  const outputTexts: string[] = [];
  const textArtifacts = new Set<DraftArtifact>();
  const addExtras = (value: unknown) => {
    const extras = z
      .object({
        artifacts: z.array(z.unknown()).optional(),
        bibliography: z.array(z.unknown()).optional(),
      })
      .passthrough()
      .safeParse(value);
    if (!extras.success) return;
    for (const a of extras.data.artifacts ?? []) {
      const art = ReferenceArtifact.safeParse(a);
      if (!art.success) continue;
      const type = normalizeArtifactType(art.data.type);
      const content =
        typeof art.data.content === "string" ? art.data.content : JSON.stringify(art.data.content);
      if (type === KNOWLEDGE_GRAPH) {
        const g = asKnowledgeGraph(
          typeof art.data.content === "string" ? safeJson(art.data.content) : art.data.content,
        );
        if (g) {
          graphs.push(g);
          continue;
        }
      }
      artifacts.push({
        type,
        title: art.data.title,
        content,
        ...(art.data.language && { language: art.data.language }),
        ...(art.data.metadata && { metadata: art.data.metadata }),
      });
    }
    if (extras.data.bibliography?.length) {
      artifacts.push({
        type: BIBLIOGRAPHY,
        title: `References from ${toolName}`,
        content: JSON.stringify(extras.data.bibliography, null, 2),
      });
    }
  };

  addExtras(result);
  for (const item of result.content) {
    switch (item.type) {
      case "text": {
        const text = item.text ?? "";
        addText(text);
        const json = safeJson(text);
        const graph = asKnowledgeGraph(json);
        if (graph) graphs.push(graph);
        else if (json && typeof json === "object") addExtras(json);
        if (!graph) outputTexts.push(text);
        if (!graph && text.length > LONG_TEXT) {
          const artifact = { type: "text/markdown", title: `Output of ${toolName}`, content: text };
          textArtifacts.add(artifact);
          artifacts.push(artifact);
        }
        break;
      }
      case "image":
      case "audio": {
        const bytes = item.data ? base64Bytes(item.data) : null;
        if (!bytes) {
          // Said, not dropped: the model (and the user, in the summary) learns something was there.
          const said = mediaTypeOr(
            item.mimeType ?? (item.type === "image" ? "image/png" : "audio/wav"),
            "application/octet-stream",
          );
          addText(
            `[${item.type} ${said} that could not be read: its data is missing or not base64]`,
          );
          break;
        }
        // The server's mimeType is a claim: an image is what its bytes are, and a type that is
        // not one (junk, a header injection) is not repeated anywhere.
        const raster = item.type === "image" ? rasterImageType(bytes) : null;
        const declared = mediaTypeOr(
          item.mimeType ?? (item.type === "image" ? "image/png" : "audio/wav"),
          "application/octet-stream",
        );
        // Said to be a raster image but not one: plain bytes, downloaded, never shown as an image.
        const claimsRaster = /^image\/(png|jpeg|gif|webp)$/.test(declared);
        const mime = raster ?? (claimsRaster ? "application/octet-stream" : declared);
        artifacts.push({
          type: mime,
          title: `${item.type === "image" ? "Image" : "Audio"} from ${toolName}`,
          bytes,
          contentType: mime,
        });
        // Providers refuse a request whose image is not what it says (the answer would fail).
        if (raster && bytes.length <= MODEL_IMAGE_BYTES) {
          forModel.push({ type: "image", mediaType: raster, data: item.data! });
        } else {
          const what =
            item.type === "image" && claimsRaster && !raster
              ? `${item.type} said to be ${declared} but not one`
              : `${item.type} ${mime}`;
          addText(`[${what}, ${bytes.length} bytes, shown to the user as an artifact]`);
        }
        break;
      }
      case "resource": {
        const r = item.resource;
        if (!r) break;
        const title =
          r.title?.trim() || r.name?.trim() || nameFromUri(r.uri) || `Resource from ${toolName}`;
        // A text file sent as a blob is still text: the model reads it and the user sees it.
        const text = r.text ?? (r.blob ? textOfBlob(r.blob, r.mimeType) : undefined);
        if (text !== undefined) {
          addText(text);
          artifacts.push({
            type: normalizeArtifactType(r.mimeType ?? "text/plain"),
            title,
            content: text,
            metadata: { uri: r.uri },
          });
        } else if (r.blob) {
          const bytes = base64Bytes(r.blob);
          const mime = mediaTypeOr(r.mimeType, "application/octet-stream");
          if (bytes)
            artifacts.push({
              type: mime,
              title,
              bytes,
              contentType: mime,
              metadata: { uri: r.uri },
            });
          addText(`[binary resource ${r.uri} (${mime}), shown to the user as an artifact]`);
        }
        break;
      }
      case "resource_link": {
        const label = item.title ?? item.name ?? item.uri ?? "resource";
        addText(
          `Resource link: ${label} <${item.uri ?? ""}>${item.description ? ` — ${item.description}` : ""}`,
        );
        artifacts.push({
          type: "application/json",
          title: `Link: ${label}`,
          content: JSON.stringify(
            {
              uri: item.uri,
              name: item.name,
              title: item.title,
              description: item.description,
              mimeType: item.mimeType,
            },
            null,
            2,
          ),
          metadata: { uri: item.uri, kind: "resource_link" },
        });
        break;
      }
      default:
        addText(`[unsupported content type ${item.type}]`);
    }
  }
  if (result.structuredContent !== undefined) {
    const graph = asKnowledgeGraph(result.structuredContent);
    if (graph) graphs.push(graph);
    else {
      addExtras(result.structuredContent);
      const hasExtras = z
        .object({ artifacts: z.array(z.unknown()) })
        .or(z.object({ bibliography: z.array(z.unknown()) }))
        .safeParse(result.structuredContent).success;
      if (!hasExtras)
        artifacts.push({
          type: "application/json",
          title: `Data from ${toolName}`,
          content: JSON.stringify(result.structuredContent, null, 2),
        });
    }
    if (result.content.length === 0) addText(JSON.stringify(result.structuredContent));
  }
  if (leftOut > 0) {
    // Text the model was not shown is never lost: all of the tool's text goes to one artifact
    // (pieces short enough to have none of their own included), and the model is told.
    if (outputTexts.length > 0) {
      const kept = artifacts.filter((a) => !textArtifacts.has(a));
      artifacts.splice(0, artifacts.length, ...kept, {
        type: "text/markdown",
        title: `Output of ${toolName}`,
        content: outputTexts.join("\n\n"),
      });
    }
    forModel.push({
      type: "text",
      text: `[${leftOut} characters of this result are not shown here: results are cut at ${MODEL_TEXT_CHARS} characters. The user has the whole output as an artifact.]`,
    });
  }
  if (forModel.length === 0)
    forModel.push({
      type: "text",
      text: result.isError ? "The tool failed without a message." : "(no output)",
    });
  const firstText = forModel.find((p) => p.type === "text");
  const summary = summarize(
    firstText?.type === "text" ? firstText.text : "",
    artifacts.length + graphs.length,
  );
  return { forModel, summary, isError: result.isError === true, artifacts, graphs };
}

function summarize(text: string, artifactCount: number): string {
  const line = text.replace(/\s+/g, " ").trim();
  const head = line.length > 200 ? `${line.slice(0, 199)}…` : line;
  return artifactCount > 0
    ? `${head}${head ? " " : ""}(${artifactCount} artifact${artifactCount > 1 ? "s" : ""})`
    : head;
}

function safeJson(text: string): unknown {
  const t = text.trim();
  if (!(t.startsWith("{") || t.startsWith("["))) return null;
  try {
    return JSON.parse(t);
  } catch {
    return null;
  }
}

function base64Bytes(b64: string): Uint8Array | null {
  try {
    return fromBase64(b64);
  } catch {
    return null;
  }
}

const TEXTUAL = /^(text\/|application\/(json|xml|javascript|x-ndjson|yaml)\b)|\+(json|xml)$/i;

/** A blob's text when its MIME type is textual and its bytes are UTF-8; otherwise undefined. */
function textOfBlob(blob: string, mimeType: string | undefined): string | undefined {
  if (!mimeType || !TEXTUAL.test(mimeType.split(";")[0]!.trim())) return undefined;
  const bytes = base64Bytes(blob);
  if (!bytes) return undefined;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}
