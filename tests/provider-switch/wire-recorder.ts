// A pass-through in front of aimock that keeps each request body exactly as the provider SDK
// sent it. aimock's journal holds the request after aimock read it into its own common shape;
// whether a history is valid for Anthropic, OpenAI, Gemini or Ollama shows only in the raw body.
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

export interface WireRequest {
  path: string;
  body: unknown;
}

const readBody = async (req: IncomingMessage): Promise<string> => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
};

/** An answer the recorder gives itself instead of passing the request on (a model's refusal). */
export type OwnAnswer = (request: WireRequest) => { status: number; body: unknown } | undefined;

/**
 * Forwards everything to `upstream` (unless `ownAnswer` answers it); GET /__wire answers the
 * requests recorded so far.
 */
export async function startWireRecorder(upstream: string, ownAnswer?: OwnAnswer) {
  const recorded: WireRequest[] = [];
  const server = createServer((req, res) => {
    void (async () => {
      const path = req.url ?? "/";
      if (req.method === "GET" && path === "/__wire") {
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(recorded));
        return;
      }
      const text = await readBody(req);
      const request = text ? { path, body: JSON.parse(text) as unknown } : null;
      if (request) recorded.push(request);
      const own = request && ownAnswer?.(request);
      if (own) {
        res.writeHead(own.status, { "content-type": "application/json" });
        res.end(JSON.stringify(own.body));
        return;
      }
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers))
        if (typeof value === "string" && !["host", "content-length"].includes(name))
          headers.set(name, value);
      const answer = await fetch(upstream + path, {
        method: req.method ?? "GET",
        headers,
        ...(text && { body: text }),
      });
      res.writeHead(answer.status, Object.fromEntries(answer.headers));
      // Streamed answers pass through as they arrive.
      const reader = answer.body?.getReader();
      for (let r = await reader?.read(); r && !r.done; r = await reader!.read()) res.write(r.value);
      res.end();
    })().catch((err: unknown) => {
      res.destroy(err instanceof Error ? err : new Error(String(err)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
