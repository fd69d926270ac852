// Attaching a resource to the next message: its text goes into the message while it fits the
// inline budget; anything longer, and anything binary, becomes an artifact of the conversation
// (row in D1, bytes in R2) that the message names, so the model is told what the user attached.
import { sql } from "drizzle-orm";
import { artifactKey } from "../../../../durable-objects/conversation/artifacts";
import { normalizeArtifactType } from "../../../../durable-objects/loop/artifact-types";
import {
  MAX_INLINE_RESOURCE_CHARS,
  type Artifact,
  type McpAttachment,
  type McpResourceContents,
} from "../../../../durable-objects/protocol/rest";
import { fromBase64 } from "../../../../shared/base64";
import { toArtifact } from "../db/artifacts";
import type { Db } from "../../../../shared/db/client";
import { artifacts } from "../../../../shared/db/schema";
import { ApiError } from "../http/errors";

/** Text longer than this goes to R2 rather than into its D1 row (rows stop at 2 MB). */
const MAX_ROW_TEXT_CHARS = 500_000;

export async function attachResource(opts: {
  db: Db;
  bucket: R2Bucket;
  conversationId: string;
  read: McpResourceContents;
  maxInlineChars?: number | undefined;
}): Promise<McpAttachment> {
  const { read } = opts;
  let budget = Math.min(
    opts.maxInlineChars ?? MAX_INLINE_RESOURCE_CHARS,
    MAX_INLINE_RESOURCE_CHARS,
  );
  let inlineChars = 0;
  const pieces: string[] = [];
  const saved: Artifact[] = [];
  for (const item of read.contents) {
    const mime = item.mimeType ?? ("text" in item ? "text/plain" : "application/octet-stream");
    if ("text" in item && item.text.length <= budget) {
      budget -= item.text.length;
      inlineChars += item.text.length;
      pieces.push(
        `Attached resource ${item.uri} from ${read.server} (${mime}):\n\n${fenced(item.text)}`,
      );
      continue;
    }
    const artifact = await saveArtifact(opts, item, mime);
    saved.push(artifact);
    const why =
      "text" in item
        ? `its ${item.text.length} characters are more than fit in a message`
        : "it is binary";
    pieces.push(
      `Attached resource ${item.uri} from ${read.server} (${mime}, ${artifact.size ?? 0} bytes) as the artifact "${artifact.title}" (id ${artifact.id}): ${why}, so its content is not in this message.`,
    );
  }
  if (pieces.length === 0)
    pieces.push(`Attached resource ${read.uri} from ${read.server}: it is empty.`);
  return {
    server: read.server,
    uri: read.uri,
    text: pieces.join("\n\n"),
    inlineChars,
    artifacts: saved,
  };
}

/** A fence longer than any run of backticks in the text, so the text cannot close it. */
function fenced(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  return `${fence}\n${text}\n${fence}`;
}

async function saveArtifact(
  opts: { db: Db; bucket: R2Bucket; conversationId: string; read: McpResourceContents },
  item: McpResourceContents["contents"][number],
  mime: string,
): Promise<Artifact> {
  const id = crypto.randomUUID();
  const title = (item.uri.split(/[/:]/).filter(Boolean).pop() ?? item.uri).slice(0, 200);
  let content: string | null = null;
  let bytes: Uint8Array | null = null;
  if ("text" in item) {
    if (item.text.length <= MAX_ROW_TEXT_CHARS) content = item.text;
    else bytes = new TextEncoder().encode(item.text);
  } else bytes = decodeBase64(item.blob, opts.read.server, item.uri);
  let r2Key: string | null = null;
  if (bytes) {
    r2Key = artifactKey(opts.conversationId, id);
    await opts.bucket.put(r2Key, bytes, { httpMetadata: { contentType: mime } });
  }
  const [position] = await opts.db
    .select({ next: sql<number>`coalesce(max(${artifacts.position}), 0) + 1` })
    .from(artifacts)
    .where(sql`${artifacts.conversationId} = ${opts.conversationId}`);
  const [row] = await opts.db
    .insert(artifacts)
    .values({
      id,
      conversationId: opts.conversationId,
      messageId: null,
      type: bytes && !("text" in item) ? mime : normalizeArtifactType(mime),
      title,
      content,
      r2Key,
      contentType: mime,
      size: bytes ? bytes.length : new TextEncoder().encode(content ?? "").length,
      language: null,
      metadata: JSON.stringify({
        uri: item.uri,
        source: { origin: "resource", server: opts.read.server, uri: item.uri },
      }),
      position: position?.next ?? 1,
    })
    .returning();
  return toArtifact(row!);
}

function decodeBase64(blob: string, server: string, uri: string): Uint8Array {
  try {
    return fromBase64(blob);
  } catch {
    throw new ApiError(
      502,
      "upstream_failed",
      `The MCP server '${server}' sent the resource ${uri} as a blob that is not valid base64.`,
    );
  }
}
