// Finds fenced tool-call blocks in a model's streamed text, for models without native tool
// calling (NextChat's `json:mcp` blocks). A block looks like
//   ```tool_call
//   {"name": "server__tool", "arguments": {...}}
//   ```
// Text outside blocks streams on at once; only a tail that may be the start of a fence is held
// back until the next delta decides it, so a fence split across chunks is still found.
import { newCallId, parseToolArguments } from "../tool-arguments";
import type { StreamEvent } from "../types";

const OPENERS = ["```tool_call", "```json:mcp"];
const CLOSER = "```";

type ParsedEvent = Extract<StreamEvent, { type: "text_delta" | "tool_call" }>;

export class ToolBlockParser {
  private buffer = "";
  private inBlock = false;
  /** The line break after a closing fence belongs to the block, even when it comes later. */
  private afterBlock = false;

  /** Feeds a text delta; returns the text to show and the calls completed so far. */
  push(delta: string): ParsedEvent[] {
    this.buffer += delta;
    const out: ParsedEvent[] = [];
    for (;;) {
      if (this.afterBlock && this.buffer.length > 0) {
        if (this.buffer.startsWith("\n")) this.buffer = this.buffer.slice(1);
        this.afterBlock = false;
      }
      if (this.inBlock) {
        // The body begins after the opener's line; the block ends at a fence on its own.
        const close = this.buffer.indexOf(CLOSER);
        if (close < 0) return out;
        out.push(blockCall(this.buffer.slice(0, close)));
        this.buffer = this.buffer.slice(close + CLOSER.length);
        this.inBlock = false;
        this.afterBlock = true;
        continue;
      }
      const open = firstOpener(this.buffer);
      if (open) {
        const lineEnd = this.buffer.indexOf("\n", open.index);
        if (lineEnd < 0) {
          pushText(out, this.buffer.slice(0, open.index));
          this.buffer = this.buffer.slice(open.index);
          return out;
        }
        pushText(out, this.buffer.slice(0, open.index));
        this.buffer = this.buffer.slice(lineEnd + 1);
        this.inBlock = true;
        continue;
      }
      const hold = heldBack(this.buffer);
      pushText(out, this.buffer.slice(0, this.buffer.length - hold));
      this.buffer = this.buffer.slice(this.buffer.length - hold);
      return out;
    }
  }

  /** The stream ended: a block left open is read as far as it went (its JSON repaired). */
  end(): ParsedEvent[] {
    const out: ParsedEvent[] = [];
    if (this.inBlock) out.push(blockCall(this.buffer));
    else pushText(out, this.buffer);
    this.buffer = "";
    this.inBlock = false;
    return out;
  }
}

function firstOpener(text: string): { index: number } | null {
  const found = OPENERS.map((o) => text.indexOf(o)).filter((i) => i >= 0);
  return found.length > 0 ? { index: Math.min(...found) } : null;
}

/** How many trailing characters could still become an opener. */
function heldBack(text: string): number {
  for (let n = Math.min(text.length, Math.max(...OPENERS.map((o) => o.length))); n > 0; n--) {
    const tail = text.slice(text.length - n);
    if (OPENERS.some((o) => o.startsWith(tail))) return n;
  }
  return 0;
}

function pushText(out: ParsedEvent[], text: string): void {
  if (text) out.push({ type: "text_delta", text });
}

/** A block's body as a call: `{name, arguments}`; broken JSON is repaired or reported. */
function blockCall(body: string): Extract<StreamEvent, { type: "tool_call" }> {
  const parsed = parseToolArguments(body.trim());
  const value = parsed.ok ? (parsed.value as Record<string, unknown>) : {};
  const name = typeof value.name === "string" ? value.name : "";
  const args = value.arguments ?? value.args ?? value.input ?? {};
  if (!parsed.ok || !name)
    return {
      type: "tool_call",
      id: newCallId(),
      name: name || "unknown",
      arguments: body.trim(),
      argumentsError: parsed.ok
        ? 'A tool-call block needs {"name": "<tool>", "arguments": {...}}.'
        : parsed.message,
    };
  if (typeof args === "string") {
    const inner = parseToolArguments(args);
    return inner.ok
      ? { type: "tool_call", id: newCallId(), name, arguments: inner.value }
      : {
          type: "tool_call",
          id: newCallId(),
          name,
          arguments: args,
          argumentsError: inner.message,
        };
  }
  return { type: "tool_call", id: newCallId(), name, arguments: args };
}
