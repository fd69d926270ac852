// A conversation's export, written as it is read: messages a page at a time and artifacts' text
// a few at a time, so a long conversation with large artifacts never sits whole in memory.
import type { ChatMessage } from "../../../../durable-objects/protocol/messages";
import type { Artifact, Conversation } from "../../../../durable-objects/protocol/rest";
import { ATTACHMENT_ARTIFACT_TYPE } from "../../../../durable-objects/protocol/attachments";
import { artifactMarkdown, markdownHeader, messageMarkdown } from "./markdown";

export interface ExportSource {
  conversation: Conversation;
  exportedAt: Date;
  /** Messages after `seq`, oldest first, at most `limit`. */
  messagesAfter(seq: number, limit: number): Promise<ChatMessage[]>;
  /** The conversation's artifacts, without their content. */
  artifacts(): Promise<Artifact[]>;
  /** These artifacts with the content of text ones, in this order; a deleted one is left out. */
  withContent(ids: readonly string[]): Promise<Artifact[]>;
}

export interface ExportOptions {
  /** Messages read at a time. */
  pageSize?: number;
  /** Artifacts whose content is read at a time. */
  contentBatch?: number;
}

const DEFAULTS = { pageSize: 200, contentBatch: 20 };

async function* messagePages(source: ExportSource, pageSize: number) {
  for (let after = 0; ;) {
    const page = await source.messagesAfter(after, pageSize);
    if (page.length > 0) yield page;
    if (page.length < pageSize) return;
    after = page.at(-1)!.seq;
  }
}

async function* withContentInBatches(source: ExportSource, ids: string[], batch: number) {
  for (let i = 0; i < ids.length; i += batch)
    yield* await source.withContent(ids.slice(i, i + batch));
}

/** The Markdown document, in pieces (see markdown.ts for how each part reads). */
export async function* markdownExport(
  source: ExportSource,
  options: ExportOptions = {},
): AsyncGenerator<string> {
  const { pageSize, contentBatch } = { ...DEFAULTS, ...options };
  const listed = await source.artifacts();
  yield markdownHeader(source.conversation, source.exportedAt);
  const shown = new Set<string>();
  for await (const page of messagePages(source, pageSize)) {
    const refs = page.flatMap((m) =>
      m.content.flatMap((p) => (p.type === "artifact" ? [p.artifactId] : [])),
    );
    for (const id of refs) shown.add(id);
    const found = new Map<string, Artifact>();
    for await (const a of withContentInBatches(source, [...new Set(refs)], contentBatch))
      found.set(a.id, a);
    for (const message of page) yield messageMarkdown(message, found);
  }
  // Artifacts no message points at (made by a tool, or kept from an earlier version).
  const rest = listed
    .filter((a) => !shown.has(a.id) && a.type !== ATTACHMENT_ARTIFACT_TYPE)
    .map((a) => a.id);
  if (rest.length === 0) return;
  yield "\n---\n\n### Other artifacts of this conversation\n";
  for await (const a of withContentInBatches(source, rest, contentBatch))
    yield `\n${artifactMarkdown({ title: a.title, artifactType: a.type }, a)}\n`;
}

/** `{exportedAt, conversation, messages, artifacts}` as JSON, in pieces. */
export async function* jsonExport(
  source: ExportSource,
  options: ExportOptions = {},
): AsyncGenerator<string> {
  const { pageSize, contentBatch } = { ...DEFAULTS, ...options };
  yield `{"exportedAt":${JSON.stringify(source.exportedAt.toISOString())},"conversation":${JSON.stringify(source.conversation)},"messages":[`;
  let first = true;
  for await (const page of messagePages(source, pageSize))
    for (const message of page) {
      yield `${first ? "" : ","}\n${JSON.stringify(message)}`;
      first = false;
    }
  yield '\n],"artifacts":[';
  first = true;
  const ids = (await source.artifacts()).map((a) => a.id);
  for await (const a of withContentInBatches(source, ids, contentBatch)) {
    yield `${first ? "" : ","}\n${JSON.stringify(a)}`;
    first = false;
  }
  yield "\n]}\n";
}

/** The pieces as a byte stream, read as the client reads. */
export function streamOf(pieces: AsyncGenerator<string>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await pieces.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
    async cancel() {
      await pieces.return(undefined);
    },
  });
}
