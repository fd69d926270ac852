// Reads the conversation's Server-Sent Events (durable-objects/conversation/sse.ts writes them)
// back into events. Event types this code does not know yet are skipped, not fatal.
import { ServerEvent } from "../../../../durable-objects/protocol/wire";

export async function* readServerEvents(
  body: ReadableStream<Uint8Array>,
): AsyncGenerator<ServerEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = block
          .split("\n")
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
