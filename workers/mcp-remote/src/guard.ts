// Who may call /mcp: a bearer token, and (against DNS rebinding) a Host and Origin we expect.
import type { McpEnv } from "./env";

const json = (status: number, code: string, message: string) =>
  Response.json(
    { jsonrpc: "2.0", error: { code: -32001, message: `${code}: ${message}` }, id: null },
    { status },
  );

let warned = false;

export function checkRequest(request: Request, env: McpEnv): Response | null {
  const url = new URL(request.url);
  const origin = request.headers.get("origin");
  if (origin) {
    const allowed = (env.ALLOWED_ORIGINS ?? "")
      .split(",")
      .map((o) => o.trim())
      .filter(Boolean);
    if (origin !== url.origin && !allowed.includes(origin))
      return json(403, "forbidden_origin", `Origin ${origin} may not call this server.`);
  }
  const host = request.headers.get("host") ?? url.host;
  if (
    env.APP_ENV !== "development" &&
    /^(localhost|127\.|\[::1\])/.test(host) &&
    url.hostname !== host.split(":")[0]
  ) {
    return json(403, "forbidden_host", "Unexpected Host header.");
  }
  if (!env.MCP_REMOTE_TOKEN) {
    if (env.APP_ENV === "development") {
      if (!warned)
        console.warn(
          "MCP_REMOTE_TOKEN is not set: /mcp accepts every caller (local development only).",
        );
      warned = true;
      return null;
    }
    return json(
      401,
      "unauthorized",
      "The server has no MCP_REMOTE_TOKEN configured; refusing all callers.",
    );
  }
  const token = /^Bearer\s+(\S+)$/i.exec(request.headers.get("authorization") ?? "")?.[1];
  if (!token || !timingSafeEqual(token, env.MCP_REMOTE_TOKEN))
    return json(401, "unauthorized", "Send Authorization: Bearer <MCP_REMOTE_TOKEN>.");
  return null;
}

function timingSafeEqual(a: string, b: string): boolean {
  const x = new TextEncoder().encode(a);
  const y = new TextEncoder().encode(b);
  let diff = x.length ^ y.length;
  for (let i = 0; i < Math.max(x.length, y.length); i++) diff |= (x[i] ?? 0) ^ (y[i] ?? 0);
  return diff === 0;
}
