// A WebSocket server on 127.0.0.1 for tests: it accepts each upgrade and at once sends the given
// text frames in one write, as a conversation catching a client up sends its stored events (a
// client asks for them in the handshake's query, which the server records).
import { createServer, type Server } from "node:http";
import type { Duplex } from "node:stream";
import { acceptUpgrade, textFrame } from "./socket-server-frames";

export interface ReplayingSocketServer {
  host: string;
  /** The path and query of each upgrade so far. */
  urls: string[];
  stop(): Promise<void>;
}

/** One unmasked text frame (FIN + opcode 1), with the length in 7, 16 or 64 bits. */

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
    acceptUpgrade(req, socket);
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
