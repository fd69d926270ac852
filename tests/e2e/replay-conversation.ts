// For the web client's tests and bench: a long conversation as the server streams it on resume
// (one event per frame), made up rather than recorded: seeding thousands of real turns through
// `wrangler dev` takes about a second a turn on a busy machine. Every frame is checked against the wire schema, so the client sees
// exactly what a real server could send.
import { ServerFrame } from "../../durable-objects/protocol/wire";

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
 * A script for addInitScript: the conversation's socket at `path` answers a resume (in its URL or
 * as a frame) with the frames, a burst of message events per task (as a socket reading a full
 * buffer delivers them); other sockets are real.
 * Plain JavaScript in a string, because tsx's helpers would not exist in the page.
 */
const BURST = 50;

export function replaySocketScript(path: string, frames: readonly string[]): string {
  return `(() => {
    const path = ${JSON.stringify(path)};
    const frames = ${JSON.stringify(frames)};
    const Real = window.WebSocket;
    function Replay(url) {
      const socket = new EventTarget();
      socket.url = url;
      socket.readyState = 0;
      socket.close = () => { socket.readyState = 3; };
      // The replay starts when it is asked for: in the handshake's query (as the web client
      // asks) or by a resume frame.
      const replay = () => {
        // When the replay was asked for and when its last frame was handed over (for the bench).
        window.replayTimes = { resumed: performance.now(), delivered: 0 };
        const channel = new MessageChannel();
        let next = 0;
        channel.port1.onmessage = () => {
          for (let i = 0; i < ${BURST} && socket.readyState === 1 && next < frames.length; i++)
            socket.dispatchEvent(new MessageEvent("message", { data: frames[next++] }));
          if (next < frames.length) channel.port2.postMessage(null);
          else window.replayTimes.delivered = performance.now();
        };
        channel.port2.postMessage(null);
      };
      socket.send = (data) => {
        if (String(data).includes('"resume"')) replay();
      };
      setTimeout(() => {
        socket.readyState = 1;
        socket.dispatchEvent(new Event("open"));
        if (new URL(url).searchParams.has("resume")) replay();
      });
      return socket;
    }
    window.WebSocket = new Proxy(Real, {
      construct(target, args) {
        return new URL(args[0]).pathname === path ? Replay(args[0]) : Reflect.construct(target, args);
      },
    });
  })();`;
}
