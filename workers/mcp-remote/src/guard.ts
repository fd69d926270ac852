// Who may call /mcp: a bearer token, and, against DNS rebinding, a Host and an Origin we expect.
import type { McpEnv } from "./env";

export type RefusalCode = "forbidden_origin" | "forbidden_host" | "unauthorized" | "not_configured";

// RFC 6750 §3.1: a request that sent no token gets the bare challenge; one whose token is
// wrong gets error="invalid_token", so a client can tell "log in" from "your token is bad".
const CHALLENGE = 'Bearer realm="mcp"';
const INVALID_TOKEN = `${CHALLENGE}, error="invalid_token", error_description="The bearer token is not this server's."`;

function refusal(
  status: number,
  code: RefusalCode,
  message: string,
  challenge = CHALLENGE,
): Response {
  return Response.json(
    { jsonrpc: "2.0", error: { code: -32001, message, data: { code } }, id: null },
    { status, headers: status === 401 ? { "www-authenticate": challenge } : {} },
  );
}

const list = (value: string | undefined) =>
  (value ?? "")
    .split(",")
    .map((v) => v.trim().toLowerCase())
    .filter(Boolean);

// The name our API worker uses through its MCP_REMOTE binding: answered to always, so setting
// ALLOWED_HOSTS to the public name does not cut the API off. No public request carries it
// (`.internal` is reserved and routes nowhere), and the bearer token is still required.
const BINDING_HOST = "mcp-remote.internal";
// Names a local `wrangler dev` answers to.
const LOCAL_HOSTS = ["localhost", "127.0.0.1", "[::1]"];

function hostAllowed(host: string, env: McpEnv): boolean {
  const name = host.toLowerCase().replace(/:\d+$/, "");
  if (name === BINDING_HOST) return true;
  const allowed = list(env.ALLOWED_HOSTS);
  if (allowed.includes(host.toLowerCase()) || allowed.includes(name)) return true;
  // Without a list, a deployed server answers to whatever name routes to it; in development a
  // rebinding page would arrive under its own name, so only local names pass.
  if (env.APP_ENV === "development") return LOCAL_HOSTS.includes(name);
  return allowed.length === 0;
}

let warned = false;

/** The Host and Origin checks alone: what a CORS preflight, which carries no token, must pass. */
export function checkHostAndOrigin(request: Request, env: McpEnv): Response | null {
  const url = new URL(request.url);
  const host = request.headers.get("host") ?? url.host;
  if (!hostAllowed(host, env))
    return refusal(403, "forbidden_host", `This server does not answer to the host ${host}.`);
  const origin = request.headers.get("origin");
  if (origin && origin !== url.origin && !list(env.ALLOWED_ORIGINS).includes(origin.toLowerCase()))
    return refusal(403, "forbidden_origin", `Origin ${origin} may not call this server.`);
  return null;
}

export function checkRequest(request: Request, env: McpEnv): Response | null {
  const misplaced = checkHostAndOrigin(request, env);
  if (misplaced) return misplaced;

  if (!env.MCP_REMOTE_TOKEN) {
    if (env.APP_ENV === "development") {
      if (!warned)
        console.warn("MCP_REMOTE_TOKEN is not set: /mcp accepts every caller (development only).");
      warned = true;
      return null;
    }
    return refusal(
      401,
      "not_configured",
      "The server has no MCP_REMOTE_TOKEN configured, so it refuses every caller.",
    );
  }
  const authorization = request.headers.get("authorization");
  const token = /^Bearer\s+(\S+)$/i.exec(authorization ?? "")?.[1];
  if (!token || !timingSafeEqual(token, env.MCP_REMOTE_TOKEN))
    return refusal(
      401,
      "unauthorized",
      "Send Authorization: Bearer <MCP_REMOTE_TOKEN>.",
      token ? INVALID_TOKEN : CHALLENGE,
    );
  return null;
}

function timingSafeEqual(a: string, b: string): boolean {
  const x = new TextEncoder().encode(a);
  const y = new TextEncoder().encode(b);
  let diff = x.length ^ y.length;
  for (let i = 0; i < Math.max(x.length, y.length); i++) diff |= (x[i] ?? 0) ^ (y[i] ?? 0);
  return diff === 0;
}
