// A WebSocket server on 127.0.0.1 for tests, small enough to read: it accepts each upgrade and
// then closes that connection with the next code from a list, as the conversation's object does
// (4401 for a revoked credential, 4404 for a deleted conversation, 1011 for a failure), after a
// frame of its own when given one (a refused creation's frame_error, a `synced`).
import { createServer, type Server } from "node:http";
import type { Duplex } from "node:stream";
import { acceptUpgrade, textFrame } from "./socket-server-frames";

export interface ClosingSocketServer {
  host: string;
  /** How many sockets were opened so far. */
  connections(): number;
  /** The path and query of each upgrade, in order. */
  paths(): string[];
  stop(): Promise<void>;
}

/** A text frame from the server (unmasked), as a browser receives it. */

/** A close code, or a code with its reason. */
export type Close = number | { code: number; reason: string };

/** `frames[i]`, when given, is sent on the i-th socket before it closes. */
export async function startClosingSocketServer(
  closeCodes: Close[],
  frames: (string | undefined)[] = [],
): Promise<ClosingSocketServer> {
  let opened = 0;
  const paths: string[] = [];
  const sockets = new Set<Duplex>();
  const server: Server = createServer((_req, res) => res.writeHead(426).end());
  server.on("upgrade", (req, socket) => {
    paths.push(req.url ?? "");
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    acceptUpgrade(req, socket);
    const frame = frames[opened];
    if (frame !== undefined) socket.write(textFrame(frame));
    const close = closeCodes[Math.min(opened++, closeCodes.length - 1)] ?? 1000;
    const { code, reason } = typeof close === "number" ? { code: close, reason: "" } : close;
    // A close frame (FIN + opcode 8): a two-byte status code, then the reason (under 126 bytes).
    const said = Buffer.from(reason);
    socket.end(Buffer.concat([Buffer.from([0x88, 2 + said.length, code >> 8, code & 0xff]), said]));
    socket.on("error", () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    host: `127.0.0.1:${port}`,
    connections: () => opened,
    paths: () => [...paths],
    stop: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
