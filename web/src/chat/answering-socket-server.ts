// A WebSocket server on 127.0.0.1 for tests that reads what the client sends: while "down" it
// closes every socket at once without reading it (as a dead network drops it), while "up" it says `synced` at once and
// answers each frame the client sends with what the test's `answer` returns (an ack, a refusal).
import { createServer, type Server } from "node:http";
import type { Duplex } from "node:stream";
import { acceptUpgrade, textFrame } from "./socket-server-frames";

export interface AnsweringSocketServer {
  host: string;
  /** Every frame received so far (parsed JSON), in order, with the socket's number. */
  received(): { socket: number; frame: unknown }[];
  /** How many sockets were served while up. */
  connections(): number;
  /** How many sockets were closed at once while down. */
  dropped(): number;
  setUp(up: boolean): void;
  stop(): Promise<void>;
}

/** Splits the client's (masked) frames off the front of `buf`: their texts, and what is left. */
function readFrames(buf: Buffer): { texts: (string | null)[]; rest: Buffer } {
  const texts: (string | null)[] = [];
  for (;;) {
    if (buf.length < 2) break;
    const opcode = buf[0]! & 0x0f;
    let length = buf[1]! & 0x7f;
    let at = 2;
    if (length === 126) {
      if (buf.length < 4) break;
      length = buf.readUInt16BE(2);
      at = 4;
    } else if (length === 127) {
      if (buf.length < 10) break;
      length = Number(buf.readBigUInt64BE(2));
      at = 10;
    }
    if (buf.length < at + 4 + length) break;
    const mask = buf.subarray(at, at + 4);
    const payload = Buffer.from(buf.subarray(at + 4, at + 4 + length));
    for (let i = 0; i < payload.length; i++) payload[i]! ^= mask[i % 4]!;
    // A close frame (8) is reported as null; pings and pongs are not used by the client.
    texts.push(opcode === 1 ? payload.toString("utf8") : opcode === 8 ? null : "");
    buf = buf.subarray(at + 4 + length);
  }
  return { texts, rest: buf };
}

export async function startAnsweringSocketServer(
  answer: (frame: unknown) => unknown,
): Promise<AnsweringSocketServer> {
  let up = false;
  let opened = 0;
  let dropped = 0;
  const received: { socket: number; frame: unknown }[] = [];
  const sockets = new Set<Duplex>();
  const server: Server = createServer((_req, res) => res.writeHead(426).end());
  server.on("upgrade", (req, socket) => {
    socket.on("error", () => undefined);
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    acceptUpgrade(req, socket);
    // Down: closed at once (1011), unread (Node's WebSocket reports no close for a refused
    // upgrade, where a browser would).
    if (!up) {
      dropped++;
      return void socket.end(Buffer.from([0x88, 0x02, 0x03, 0xf3]));
    }
    const number = opened++;
    socket.write(textFrame(JSON.stringify({ type: "synced", seq: 0, busy: false })));
    let pending = Buffer.alloc(0);
    socket.on("data", (chunk: Buffer) => {
      const { texts, rest } = readFrames(Buffer.concat([pending, chunk]));
      pending = rest;
      for (const text of texts) {
        if (text === null) return void socket.end(Buffer.from([0x88, 0x02, 0x03, 0xe8]));
        if (!text) continue;
        const frame: unknown = JSON.parse(text);
        received.push({ socket: number, frame });
        const reply = answer(frame);
        if (reply !== undefined) socket.write(textFrame(JSON.stringify(reply)));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    host: `127.0.0.1:${port}`,
    received: () => [...received],
    connections: () => opened,
    dropped: () => dropped,
    setUp: (value) => {
      up = value;
    },
    stop: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
