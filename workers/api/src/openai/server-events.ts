// Reads the conversation's Server-Sent Events (durable-objects/conversation/sse.ts writes them)
// back into events. Event types this code does not know yet are skipped, not fatal. A stream the
// conversation ended saying why (the reader lost access, say) throws that, as an ApiError.
import { ServerEvent } from "../../../../durable-objects/protocol/wire";
import { streamEndingError } from "./stream-endings";

export async function* readServerEvents(
  body: ReadableStream<Uint8Array>,
): AsyncGenerator<ServerEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let lastComment: string | null = null;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        const why = streamEndingError(lastComment);
        if (why) throw why;
        return;
      }
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const lines = block.split("\n");
        const comment = lines.find((line) => line.startsWith(":"));
        if (comment !== undefined) lastComment = comment.slice(1).trim();
        const data = lines
          .filter((line) => line.startsWith("data:"))
          .map((line) => line.slice(5).trimStart())
          .join("\n");
        if (!data) continue; // a keep-alive comment
        const event = ServerEvent.safeParse(JSON.parse(data));
        if (event.success) yield event.data;
      }
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}
