// Local reasoning models (DeepSeek-R1, Qwen3, …) behind a server that does not split out their
// reasoning write it into the answer between <think> and </think>. Such an answer would show the
// model's thinking as its reply, and send it back as history. Reasoning opened by <think> at the
// very start of a call's text becomes reasoning; a tag anywhere else is the answer's own text.
import type { StreamEvent } from "./types";

const OPEN = "<think>";
const CLOSE = "</think>";

/** How much of `text`'s end could be the start of `tag`: kept until the next delta tells. */
function partialTagAtEnd(text: string, tag: string): number {
  for (let n = Math.min(tag.length - 1, text.length); n > 0; n--)
    if (tag.startsWith(text.slice(-n))) return n;
  return 0;
}

export async function* splitThinkTags(
  events: AsyncIterable<StreamEvent>,
): AsyncIterable<StreamEvent> {
  let state: "start" | "thinking" | "answer" = "start";
  // Text held back: the start of the answer until it shows whether it opens with <think>, or
  // what might be the start of </think>.
  let held = "";
  // The blank lines after </think> are not the answer's.
  let afterThinking = false;
  for await (const event of events) {
    if (event.type === "text_delta" && afterThinking) {
      const text = event.text.replace(/^\s+/, "");
      if (!text) continue;
      afterThinking = false;
      yield { type: "text_delta", text };
      continue;
    }
    if (event.type !== "text_delta" || state === "answer") {
      // Anything else ends what text could have said: what was held is what it looked like.
      if (held && event.type !== "text_delta" && event.type !== "reasoning_delta") {
        yield { type: state === "thinking" ? "reasoning_delta" : "text_delta", text: held };
        held = "";
        if (state === "start") state = "answer";
      }
      yield event;
      continue;
    }
    let text = held + event.text;
    held = "";
    if (state === "start") {
      const lead = text.trimStart();
      if (lead.startsWith(OPEN)) {
        state = "thinking";
        text = lead.slice(OPEN.length);
      } else if (OPEN.startsWith(lead)) {
        held = text; // Blank so far, or a part of <think>.
        continue;
      } else {
        state = "answer";
        yield { type: "text_delta", text };
        continue;
      }
    }
    // Thinking.
    const end = text.indexOf(CLOSE);
    if (end === -1) {
      const keep = partialTagAtEnd(text, CLOSE);
      const thought = text.slice(0, text.length - keep);
      held = text.slice(text.length - keep);
      if (thought) yield { type: "reasoning_delta", text: thought };
      continue;
    }
    if (end > 0) yield { type: "reasoning_delta", text: text.slice(0, end) };
    state = "answer";
    const rest = text.slice(end + CLOSE.length).replace(/^\s+/, "");
    if (rest) yield { type: "text_delta", text: rest };
    else afterThinking = true;
  }
  if (held) yield { type: state === "thinking" ? "reasoning_delta" : "text_delta", text: held };
}
