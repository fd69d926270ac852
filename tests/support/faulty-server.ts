// A misbehaving "MCP server" on 127.0.0.1: /hang never answers, /garbage answers with HTML,
// /old-protocol answers initialize with a protocol version nobody speaks any more, and
// /redirect/<status>?to=<url> redirects (to another origin, for the credential tests).
import { createServer, type ServerResponse } from "node:http";

export async function startFaultyServer(): Promise<{ url: string; stop: () => Promise<void> }> {
  const hanging = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    if (req.url?.startsWith("/hang")) {
      hanging.add(res);
      return;
    }
    const url = new URL(req.url ?? "/", "http://x");
    const redirect = /^\/redirect\/(\d{3})$/.exec(url.pathname);
    if (redirect) {
      res.writeHead(Number(redirect[1]), { location: url.searchParams.get("to") ?? "/" });
      return void res.end();
    }
    if (url.pathname === "/old-protocol" && req.method === "POST") {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        const message = JSON.parse(body) as { id?: number };
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            jsonrpc: "2.0",
            id: message.id,
            result: {
              protocolVersion: "2023-01-01",
              capabilities: { tools: {} },
              serverInfo: { name: "old", version: "0.1.0" },
            },
          }),
        );
      });
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
