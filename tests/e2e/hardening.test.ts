// Hardening seen from outside: what the operator sees in wrangler's log while clients misbehave
// (one sampled warning, a prompt close reply, a quiet deletion), the HTML page's headers, and the
// script as wrangler bundles it, with its stand-ins for packages it never runs.
import { afterAll, beforeAll, expect, it } from "vitest";
import { type Stack, startStack } from "./stack";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack(() => undefined);
});
afterAll(async () => {
  await stack?.stop();
});

const auth = () => ({ authorization: `Bearer ${stack.token}` });

async function newConversation(): Promise<string> {
  const res = await fetch(`${stack.url}/api/conversations`, {
    method: "POST",
    headers: { ...auth(), "content-type": "application/json" },
    body: "{}",
  });
  return ((await res.json()) as { id: string }).id;
}

async function open(id: string): Promise<WebSocket> {
  const res = await fetch(`${stack.url}/api/conversations/${id}/ws-ticket`, {
    method: "POST",
    headers: auth(),
  });
  const { ticket } = (await res.json()) as { ticket: string };
  const ws = new WebSocket(
    `${stack.url.replace("http", "ws")}/api/conversations/${id}/ws?ticket=${encodeURIComponent(ticket)}`,
  );
  await new Promise((resolve, reject) => {
    ws.addEventListener("open", resolve);
    ws.addEventListener("error", () => reject(new Error("websocket error")));
  });
  return ws;
}

const closed = (ws: WebSocket) =>
  new Promise<{ code: number; at: number }>((resolve) =>
    ws.addEventListener("close", (e) => resolve({ code: e.code, at: Date.now() })),
  );

const errorLines = () =>
  stack
    .logs()
    .split("\n")
    .filter((l) => /\[ERROR\]|Uncaught/.test(l));

it("malformed and foreign frames get frame_error and no error line in the log", async () => {
  const ws = await open(await newConversation());
  let answers = 0;
  ws.addEventListener("message", (m) => {
    if ((JSON.parse(String(m.data)) as { type: string }).type === "frame_error") answers++;
  });
  const before = errorLines().length;
  for (let i = 0; i < 10; i++) {
    ws.send(`{not json ${i}`);
    ws.send(JSON.stringify({ type: "rpc", id: String(i), method: "wipe", args: [] }));
    ws.send(JSON.stringify({ type: "cf_agent_state", state: { owned: true } }));
  }
  for (let i = 0; i < 300 && answers < 30; i++) await new Promise((r) => setTimeout(r, 50));
  expect(answers).toBe(30);
  expect(errorLines().slice(before)).toEqual([]);
  const warnings = stack
    .logs()
    .split("\n")
    .filter((l) => l.includes("malformed client frame"));
  expect(warnings.length).toBeLessThanOrEqual(1);
  ws.close(1000);
});

it("a close without a status code is answered at once, not with 1006 ten seconds later", async () => {
  const ws = await open(await newConversation());
  const end = closed(ws);
  const started = Date.now();
  ws.close();
  const { code, at } = await end;
  expect(code).not.toBe(1006);
  expect(at - started).toBeLessThan(2_000);
});

it("deleting a conversation with open sockets closes them with 4404 and logs no error", async () => {
  const id = await newConversation();
  const sockets = await Promise.all([open(id), open(id)]);
  for (const ws of sockets) ws.send(JSON.stringify({ type: "resume", lastSeq: 0 }));
  await new Promise((r) => setTimeout(r, 300));
  const before = errorLines().length;
  const ends = sockets.map(closed);
  const res = await fetch(`${stack.url}/api/conversations/${id}`, {
    method: "DELETE",
    headers: auth(),
  });
  expect(res.status).toBe(204);
  expect((await Promise.all(ends)).map((e) => e.code)).toEqual([4404, 4404]);
  await new Promise((r) => setTimeout(r, 1_000));
  expect(errorLines().slice(before)).toEqual([]);
});

it("serves the HTML page with HSTS, COOP, a Permissions-Policy and the CSP", async () => {
  for (const path of ["/", "/?c=some-conversation"]) {
    const res = await fetch(`${stack.url}${path}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/text\/html/);
    expect(res.headers.get("strict-transport-security")).toMatch(/max-age=\d{7,}/);
    expect(res.headers.get("cross-origin-opener-policy")).toBe("same-origin");
    expect(res.headers.get("permissions-policy")).toContain("camera=()");
    expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    await res.text();
  }
});

it("the bundled worker, with its stand-ins (wrangler.toml [alias]), serves the OpenAPI document", async () => {
  // Converting every route's schema goes through the libraries whose zod 3 converter is a
  // stand-in here: a schema that needed it would make this a 500.
  const res = await fetch(`${stack.url}/api/openapi.json`);
  expect(res.status).toBe(200);
  const doc = (await res.json()) as { openapi: string; paths: Record<string, unknown> };
  expect(doc.openapi).toMatch(/^3\./);
  expect(Object.keys(doc.paths)).toEqual(
    expect.arrayContaining(["/api/conversations", "/api/mcp-servers"]),
  );
});
