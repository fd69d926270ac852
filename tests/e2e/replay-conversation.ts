// A long conversation as the server streams it on resume (one event per frame), made up rather
// than recorded: seeding thousands of real turns through `wrangler dev` takes about a second a
// turn on the bench machine. Every frame is checked against the wire schema, so the client sees
// exactly what a real server could send.
import { ServerFrame } from "../../../durable-objects/protocol/wire";

const ANSWER = "A short answer, **in markdown**, with a list:\n\n- one\n- two";

export function conversationFrames(messages: number): string[] {
  const frames: unknown[] = [];
  let seq = 0;
  const at = Date.now();
  for (let i = 0; i < messages / 2; i++) {
    const question = { id: `u${i}`, text: `Question ${i}: tell me something.` };
    const userSeq = ++seq;
    frames.push({
      seq: userSeq,
      at,
      type: "user_message",
      message: {
        id: question.id,
        role: "user",
        content: [{ type: "text", text: question.text }],
        status: "complete",
        seq: userSeq,
        clientMessageId: `q${i}`,
        createdAt: at,
      },
    });
    const turn = { turnId: `t${i}`, messageId: `a${i}` };
    frames.push({
      seq: ++seq,
      at,
      type: "turn_started",
      ...turn,
      order: seq,
      userMessageId: question.id,
      provider: "anthropic",
      model: "mock",
    });
    frames.push({ seq: ++seq, at, type: "text_delta", messageId: turn.messageId, delta: ANSWER });
    frames.push({
      seq: ++seq,
      at,
      type: "message_completed",
      messageId: turn.messageId,
      content: [{ type: "text", text: ANSWER }],
      status: "complete",
    });
    frames.push({ seq: ++seq, at, type: "turn_ended", turnId: turn.turnId, status: "complete" });
  }
  frames.push({ type: "synced", seq, busy: false });
  return frames.map((f) => JSON.stringify(ServerFrame.parse(f)));
}

/**
 * Runs in the page (pass to addInitScript): the conversation's socket answers `resume` with the
 * frames, one message event per task as a real socket delivers them. Other sockets are real.
 */
export function replaySocket({ path, frames }: { path: string; frames: string[] }): void {
  const Real = window.WebSocket;
  class Replay extends EventTarget {
    static readonly OPEN = 1;
    readyState = 0;
    constructor(readonly url: string) {
      super();
      setTimeout(() => {
        this.readyState = 1;
        this.dispatchEvent(new Event("open"));
      });
    }
    send(data: string) {
      if (!data.includes('"resume"')) return;
      const channel = new MessageChannel();
      let next = 0;
      channel.port1.onmessage = () => {
        if (this.readyState !== 1 || next >= frames.length) return;
        this.dispatchEvent(new MessageEvent("message", { data: frames[next++] }));
        channel.port2.postMessage(null);
      };
      channel.port2.postMessage(null);
    }
    close() {
      this.readyState = 3;
    }
  }
  window.WebSocket = new Proxy(Real, {
    construct(target, args: [string, ...unknown[]]) {
      return new URL(args[0]).pathname === path
        ? new Replay(args[0])
        : Reflect.construct(target, args);
    },
  });
}
