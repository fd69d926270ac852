// Serves recorded outside-API responses on 127.0.0.1; some queries stand for failures.
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { fileURLToPath } from "node:url";

const fixture = (name: string) =>
  readFileSync(fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url)));

export async function startFixtureServer(): Promise<{ url: string; stop: () => Promise<void> }> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const q = [...url.searchParams.values()].join(" ");
    if (q.includes("ratelimited"))
      return void res
        .writeHead(429, { "retry-after": "1" })
        .end('{"error":"API rate limit exceeded"}');
    if (q.includes("servererror")) return void res.writeHead(500).end("Internal Server Error");
    if (q.includes("malformed"))
      return void res.writeHead(200, { "content-type": "application/json" }).end("{not json");
    const send = (name: string, type = "application/json") =>
      void res.writeHead(200, { "content-type": type }).end(fixture(name));
    if (url.pathname.endsWith("/esearch.fcgi"))
      return send(q.includes("nothingmatches") ? "esearch-empty.json" : "esearch.json");
    if (url.pathname.endsWith("/esummary.fcgi")) return send("esummary.json");
    if (url.pathname.endsWith("/efetch.fcgi")) return send("efetch.xml", "text/xml");
    if (url.pathname.endsWith("/publications/export/biocjson")) return send("pubtator.json");
    if (/\/studies\/NCT\d+$/.test(url.pathname)) return send("study.json");
    if (url.pathname.endsWith("/studies")) return send("studies.json");
    res.writeHead(404).end("not found");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const a = server.address();
  return {
    url: `http://127.0.0.1:${typeof a === "object" && a ? a.port : 0}`,
    stop: () => new Promise((r) => server.close(() => r())),
  };
}
