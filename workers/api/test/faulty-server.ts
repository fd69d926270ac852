// A misbehaving "MCP server" on 127.0.0.1: /hang never answers, /garbage answers with HTML.
import { createServer, type ServerResponse } from "node:http";

export async function startFaultyServer(): Promise<{ url: string; stop: () => Promise<void> }> {
  const hanging = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    if (req.url?.startsWith("/hang")) {
      hanging.add(res);
      return;
    }
    res.writeHead(200, { "content-type": "text/html" });
    res.end("<html><body>Definitely not JSON-RPC</body></html>");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
