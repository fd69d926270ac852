// The guarded fetch against real servers on 127.0.0.1 (loopback is allowed as in development):
// two ports are two origins, so a redirect chain between them shows which hop gets which header.
import { createServer, type IncomingMessage, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dohResolver } from "./dns-over-https";
import { guardedFetch } from "./guarded-fetch";

interface Seen {
  at: string;
  method: string;
  authorization: string | null;
  apiKey: string | null;
  sessionId: string | null;
  body: string;
}

const servers: Server[] = [];
async function listen(
  handle: (
    req: IncomingMessage,
    body: string,
  ) => { status: number; location?: string; json?: unknown },
): Promise<string> {
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const answer = handle(req, body);
      res.writeHead(answer.status, {
        ...(answer.location && { location: answer.location }),
        "content-type": "application/json",
      });
      res.end(JSON.stringify(answer.json ?? {}));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  servers.push(server);
  const address = server.address();
  return `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
}

afterAll(async () => {
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise((resolve) => s.close(resolve));
  }
});

describe("redirects", () => {
  const seen: Seen[] = [];
  let a = "";
  let b = "";
  const record = (origin: string) => (req: IncomingMessage, body: string) => {
    seen.push({
      at: `${origin}${req.url}`,
      method: req.method ?? "",
      authorization: req.headers.authorization ?? null,
      apiKey: (req.headers["x-api-key"] as string | undefined) ?? null,
      sessionId: (req.headers["mcp-session-id"] as string | undefined) ?? null,
      body,
    });
  };

  beforeAll(async () => {
    // Origin A: 307 within itself, then 308 to origin B; B sends it back to A with 307.
    // /see-other answers 302 (the way many servers move an endpoint).
    a = await listen((req, body) => {
      record("A")(req, body);
      if (req.url === "/start") return { status: 307, location: "/next" };
      if (req.url === "/next") return { status: 308, location: `${b}/mcp` };
      if (req.url === "/moved") return { status: 302, location: "/final" };
      return { status: 200, json: { ok: true } };
    });
    b = await listen((req, body) => {
      record("B")(req, body);
      if (req.url === "/mcp") return { status: 307, location: `${a}/final` };
      return { status: 200 };
    });
  });

  const call = (path: string) =>
    guardedFetch(fetch, { allowLocal: true })(`${a}${path}`, {
      method: "POST",
      headers: {
        authorization: "Bearer user-secret",
        "x-api-key": "key-1234",
        "mcp-session-id": "session-1",
        "content-type": "application/json",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });

  it("307 and 308 send the body again; credentials stay on their origin and never come back after it changed", async () => {
    seen.length = 0;
    const res = await call("/start");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" });
    expect(seen).toEqual([
      // Same origin: everything the user configured.
      {
        at: "A/start",
        method: "POST",
        authorization: "Bearer user-secret",
        apiKey: "key-1234",
        sessionId: "session-1",
        body,
      },
      {
        at: "A/next",
        method: "POST",
        authorization: "Bearer user-secret",
        apiKey: "key-1234",
        sessionId: "session-1",
        body,
      },
      // Another origin: the protocol's headers only.
      {
        at: "B/mcp",
        method: "POST",
        authorization: null,
        apiKey: null,
        sessionId: "session-1",
        body,
      },
      // Back on the first origin after a detour: still nothing secret (as the fetch standard does).
      {
        at: "A/final",
        method: "POST",
        authorization: null,
        apiKey: null,
        sessionId: "session-1",
        body,
      },
    ]);
  });

  it("302 turns the request into a GET without a body, on the same origin with its headers", async () => {
    seen.length = 0;
    const res = await call("/moved");
    expect(res.status).toBe(200);
    expect(seen.map((s) => [s.at, s.method, s.authorization, s.body])).toEqual([
      ["A/moved", "POST", "Bearer user-secret", expect.stringContaining("tools/list")],
      ["A/final", "GET", "Bearer user-secret", ""],
    ]);
  });
});

describe("names are resolved before they are trusted (production)", () => {
  let doh = "";
  const questions: string[] = [];
  const ANSWERS: Record<string, { A?: string[]; AAAA?: string[]; status?: number }> = {
    "public.example.com": { A: ["93.184.216.34"] },
    "rebind.example.com": { A: ["127.0.0.1"] },
    "wildcard.example.com": { A: ["93.184.216.34", "10.0.0.8"] },
    "v6.example.com": { A: ["93.184.216.34"], AAAA: ["::1"] },
    "mapped.example.com": { AAAA: ["::ffff:169.254.169.254"] },
    "gone.example.com": { status: 3 },
  };

  beforeAll(async () => {
    doh = await listen((req) => {
      const url = new URL(req.url ?? "/", "http://x");
      const name = url.searchParams.get("name") ?? "";
      const type = url.searchParams.get("type") as "A" | "AAAA";
      questions.push(`${name} ${type}`);
      const entry = ANSWERS[name] ?? { status: 3 };
      return {
        status: 200,
        json: {
          Status: entry.status ?? 0,
          Answer: (entry[type] ?? []).map((data) => ({
            name,
            type: type === "A" ? 1 : 28,
            TTL: 60,
            data,
          })),
        },
      };
    });
  });

  function guarded(now: () => number = Date.now) {
    const requested: string[] = [];
    const upstream = (async (input: RequestInfo | URL) => {
      const url = String(input);
      requested.push(url);
      if (url === "https://public.example.com/mcp")
        return new Response(null, {
          status: 307,
          headers: { location: "https://rebind.example.com/mcp" },
        });
      return new Response("{}");
    }) as typeof fetch;
    const fetchGuarded = guardedFetch(upstream, {
      allowLocal: false,
      resolveHost: dohResolver(`${doh}/dns-query`, fetch, now),
    });
    return { fetchGuarded, requested };
  }

  it("refuses a name when any of its addresses is private, before any request", async () => {
    const { fetchGuarded, requested } = guarded();
    await expect(fetchGuarded("https://rebind.example.com/mcp")).rejects.toThrow(
      /rebind\.example\.com resolves to 127\.0\.0\.1, a loopback address/,
    );
    await expect(fetchGuarded("https://wildcard.example.com/mcp")).rejects.toThrow(
      /10\.0\.0\.8, a private address/,
    );
    await expect(fetchGuarded("https://v6.example.com/mcp")).rejects.toThrow(/::1/);
    await expect(fetchGuarded("https://mapped.example.com/mcp")).rejects.toThrow(/metadata/);
    await expect(fetchGuarded("https://gone.example.com/mcp")).rejects.toThrow(
      /no public DNS address/,
    );
    expect(requested).toEqual([]);
  });

  it("checks the name of every redirect hop", async () => {
    const { fetchGuarded, requested } = guarded();
    await expect(fetchGuarded("https://public.example.com/mcp")).rejects.toThrow(
      /redirect to https:\/\/rebind\.example\.com\/mcp: .*loopback/,
    );
    expect(requested).toEqual(["https://public.example.com/mcp"]);
  });

  it("asks the resolver again only once the answer's TTL has passed", async () => {
    let clock = 1_000_000;
    const { fetchGuarded } = guarded(() => clock);
    questions.length = 0;
    await expect(fetchGuarded("https://rebind.example.com/x")).rejects.toThrow();
    await expect(fetchGuarded("https://rebind.example.com/y")).rejects.toThrow();
    expect(questions).toEqual(["rebind.example.com A", "rebind.example.com AAAA"]);
    clock += 61_000;
    await expect(fetchGuarded("https://rebind.example.com/z")).rejects.toThrow();
    expect(questions).toHaveLength(4);
  });

  it("local development resolves nothing and allows loopback names", async () => {
    const asked: string[] = [];
    const res = await guardedFetch((async () => new Response("{}")) as typeof fetch, {
      allowLocal: true,
      resolveHost: async (host) => {
        asked.push(host);
        return ["127.0.0.1"];
      },
    })("http://localhost:3001/mcp");
    expect(res.status).toBe(200);
    expect(asked).toEqual([]);
  });
});
