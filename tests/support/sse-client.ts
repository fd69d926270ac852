// A Server-Sent Events client for tests: reads a real response body as it streams, parses each
// frame as a user's EventSource would, and checks every `data:` against the wire union.
import { ServerEvent } from "../../durable-objects/protocol/wire";

export interface SseFrame {
  id: number;
  event: string;
  data: ServerEvent;
}

export class SseReader {
  readonly frames: SseFrame[] = [];
  /** The text of each comment line (`: connected`, `: keep-alive`, why a stream ended). */
  readonly comments: string[] = [];
  /** True once the server ended the stream (the body is done). */
  ended = false;
  private waiters: Array<() => void> = [];
  private failure: unknown = null;
  private readonly reader: ReadableStreamDefaultReader<string>;

  constructor(readonly response: Response) {
    if (!response.body) throw new Error(`no body: ${response.status}`);
    this.reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    void this.pump();
  }

  events(): ServerEvent[] {
    return this.frames.map((f) => f.data);
  }

  seqs(): number[] {
    return this.frames.map((f) => f.id);
  }

  /** Resolves once `predicate` holds for the frames so far; fails if the stream ends first. */
  async until(predicate: (frames: SseFrame[]) => boolean, timeoutMs = 15_000): Promise<void> {
    await this.wait(() => predicate(this.frames), timeoutMs, true);
  }

  /** Resolves with every event once the server ends the stream; fails if it stays open. */
  async done(timeoutMs = 15_000): Promise<ServerEvent[]> {
    await this.wait(() => this.ended, timeoutMs, false);
    return this.events();
  }

  cancel(): void {
    void this.reader.cancel().catch(() => undefined);
  }

  private async wait(ready: () => boolean, timeoutMs: number, failOnEnd: boolean) {
    const deadline = Date.now() + timeoutMs;
    while (!ready()) {
      if (this.failure) throw this.failure;
      if (failOnEnd && this.ended) throw new Error("stream ended while waiting");
      const left = deadline - Date.now();
      if (left <= 0) {
        const tail = this.frames.slice(-2).map((f) => `${f.id} ${f.event}`);
        throw new Error(`timed out after ${this.frames.length} frames; last: ${tail.join(", ")}`);
      }
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  private async pump() {
    let buffer = "";
    try {
      for (;;) {
        const { value, done } = await this.reader.read();
        if (done) break;
        buffer += value;
        let end = buffer.indexOf("\n\n");
        while (end >= 0) {
          this.parse(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
          end = buffer.indexOf("\n\n");
        }
        this.wake();
      }
      if (buffer.trim()) throw new Error(`stream ended inside a frame: ${buffer.slice(0, 80)}`);
    } catch (err) {
      this.failure = err;
    }
    this.ended = true;
    this.wake();
  }

  private parse(block: string) {
    const fields: Record<string, string> = {};
    for (const line of block.split("\n")) {
      if (line.startsWith(":")) {
        this.comments.push(line.slice(1).trim());
        continue;
      }
      const colon = line.indexOf(":");
      const name = colon < 0 ? line : line.slice(0, colon);
      fields[name] = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
    }
    if (fields.data === undefined) return;
    const data = ServerEvent.parse(JSON.parse(fields.data));
    this.frames.push({ id: Number(fields.id), event: fields.event ?? "message", data });
  }

  private wake() {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }
}

export const isTurnEnd = (e: ServerEvent) => e.type === "turn_ended" || e.type === "turn_failed";

/** `from+1, from+2, …, to`: what a stream resumed after `from` must carry. */
export const range = (from: number, to: number) =>
  Array.from({ length: Math.max(0, to - from) }, (_, i) => from + 1 + i);
