// A WebSocket server on 127.0.0.1 for tests: it accepts each upgrade and at once sends the given
// text frames in one write, as a conversation catching a client up sends its stored events (a
// client asks for them in the handshake's query, which the server records).
import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { Duplex } from "node:stream";

const WEBSOCKET_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

export interface ReplayingSocketServer {
  host: string;
  /** The path and query of each upgrade so far. */
  urls: string[];
  stop(): Promise<void>;
}

/** One unmasked text frame (FIN + opcode 1), with the length in 7, 16 or 64 bits. */
function textFrame(text: string): Buffer {
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

/** `thenClose`: after the frames, close each socket with this code (the client reconnects). */
export async function startReplayingSocketServer(
  frames: readonly string[],
  { thenClose }: { thenClose?: number } = {},
): Promise<ReplayingSocketServer> {
  const sockets = new Set<Duplex>();
  const urls: string[] = [];
  const server: Server = createServer((_req, res) => res.writeHead(426).end());
  server.on("upgrade", (req, socket) => {
    urls.push(req.url ?? "");
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => undefined);
    const accept = createHash("sha1")
      .update(String(req.headers["sec-websocket-key"]) + WEBSOCKET_GUID)
      .digest("base64");
    socket.write(
      "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
        `Sec-WebSocket-Accept: ${accept}\r\n\r\n`,
    );
    socket.write(Buffer.concat(frames.map(textFrame)));
    // A close frame (FIN + opcode 8) with a two-byte status code and no reason.
    if (thenClose !== undefined)
      socket.end(Buffer.from([0x88, 0x02, thenClose >> 8, thenClose & 0xff]));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    host: `127.0.0.1:${port}`,
    urls,
    stop: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
