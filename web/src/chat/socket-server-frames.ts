// What the web tests' small WebSocket servers (answering-, closing-, replaying-socket-server.ts)
// share: the upgrade's handshake and a server's unmasked text frame.
import { createHash } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";

const WEBSOCKET_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

/** Answers the upgrade: the socket is a WebSocket from here on. */
export function acceptUpgrade(req: IncomingMessage, socket: Duplex): void {
  const accept = createHash("sha1")
    .update(String(req.headers["sec-websocket-key"]) + WEBSOCKET_GUID)
    .digest("base64");
  socket.write(
    "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
      `Sec-WebSocket-Accept: ${accept}\r\n\r\n`,
  );
}

/** A text frame from the server (unmasked), of any length. */
export function textFrame(text: string): Buffer {
  const payload = Buffer.from(text, "utf8");
  const n = payload.length;
  const head =
    n < 126
      ? Buffer.from([0x81, n])
      : n < 65536
        ? Buffer.from([0x81, 126, n >> 8, n & 0xff])
        : Buffer.concat([Buffer.from([0x81, 127]), bigEndian64(n)]);
  return Buffer.concat([head, payload]);
}

function bigEndian64(n: number): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(BigInt(n));
  return b;
}
