// Serves recorded outside-API responses on 127.0.0.1 so tests never reach the internet.
// Some inputs stand for failures: a query (or condition) containing "ratelimited" (or
// "ratelimitdate", with Retry-After as a date), "servererror",
// "malformed", "slowresponse" or "hugeresponse", PubTator PMIDs 4290000 / 5000000 / 1111111 /
// 2222222 (empty), and trial NCT00000000 (unknown); a query containing "hangs" is answered only
// after a minute. GET /__requests lists the URLs asked for, GET /__abandoned those whose caller
// closed the connection before the answer was sent.
import { readFileSync } from "node:fs";
import { createServer, type ServerResponse } from "node:http";
import { fileURLToPath } from "node:url";
import { oversized } from "./fixture-oversized";

const fixture = (name: string) =>
  readFileSync(fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url)));

function failure(q: string, res: ServerResponse): boolean {
  if (q.includes("ratelimitdate")) {
    // Retry-After may also be an HTTP date (RFC 9110); this one is 2 minutes from now.
    res.writeHead(429, { "retry-after": new Date(Date.now() + 120_000).toUTCString() });
    res.end("Too Many Requests");
  } else if (q.includes("ratelimited") || q.includes("4290000")) {
    res.writeHead(429, { "retry-after": "2", "content-type": "application/json" });
    res.end('{"error":"API rate limit exceeded","api-key":"127.0.0.1","count":"4","limit":"3"}');
  } else if (q.includes("servererror") || q.includes("5000000")) {
    res
      .writeHead(500, { "content-type": "text/html" })
      .end("<html><body>Internal Server Error</body></html>");
  } else if (q.includes("malformed") || q.includes("1111111")) {
    res
      .writeHead(200, { "content-type": "application/json" })
      .end('{"esearchresult": {"count": "3", "idl');
  } else if (q.includes("slowresponse")) {
    // Longer than the OUTSIDE_TIMEOUT_MS the tests configure.
    setTimeout(
      () => res.writeHead(200, { "content-type": "application/json" }).end("{}"),
      3000,
    ).unref();
  } else if (q.includes("hangs")) {
    setTimeout(
      () => res.writeHead(200, { "content-type": "application/json" }).end("{}"),
      60_000,
    ).unref();
  } else if (q.includes("hugeresponse")) {
    // No content-length: the bound must hold while streaming.
    res.writeHead(200, { "content-type": "application/json" });
    res.write('{"esearchresult":{"idlist":[');
    res.end(`${'"1",'.repeat(200_000)}"1"]}}`);
  } else return false;
  return true;
}

export async function startFixtureServer(): Promise<{ url: string; stop: () => Promise<void> }> {
  const requests: string[] = [];
  const abandoned: string[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    if (url.pathname === "/__requests") return void res.end(JSON.stringify(requests));
    if (url.pathname === "/__abandoned") return void res.end(JSON.stringify(abandoned));
    requests.push(url.pathname + url.search);
    res.on("close", () => {
      if (!res.writableEnded) abandoned.push(url.pathname + url.search);
    });
    const q = [...url.searchParams.values(), url.pathname].join(" ");
    if (failure(q, res)) return;
    const generated = oversized(url);
    if (generated !== null)
      return void res.writeHead(200, { "content-type": "application/json" }).end(generated);
    const send = (name: string, type = "application/json") =>
      void res.writeHead(200, { "content-type": type }).end(fixture(name));
    if (url.pathname.endsWith("/esearch.fcgi")) {
      if (q.includes("badsyntax")) return send("esearch-error.json");
      return send(q.includes("nothingmatches") ? "esearch-empty.json" : "esearch.json");
    }
    if (url.pathname.endsWith("/esummary.fcgi")) return send("esummary.json");
    if (url.pathname.endsWith("/efetch.fcgi")) return send("efetch.xml", "text/xml");
    if (url.pathname.endsWith("/publications/export/biocjson"))
      return send(q.includes("2222222") ? "pubtator-empty.json" : "pubtator.json");
    if (url.pathname.endsWith("/studies/NCT00000000"))
      return void res
        .writeHead(404, { "content-type": "text/plain" })
        .end("Study NCT00000000 not found");
    if (/\/studies\/NCT\d{8}$/.test(url.pathname)) return send("study.json");
    if (url.pathname.endsWith("/studies"))
      return send(q.includes("nothingmatches") ? "studies-empty.json" : "studies.json");
    res.writeHead(404).end("not found");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const a = server.address();
  return {
    url: `http://127.0.0.1:${typeof a === "object" && a ? a.port : 0}`,
    stop: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
