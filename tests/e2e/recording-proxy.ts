// A pass-through on 127.0.0.1 in front of aimock that keeps each request body as the worker sent
// it. aimock's journal keeps an Anthropic request only as its text (it drops image and document
// blocks when it reads one), so the provider's own part types are checked here; aimock still
// answers every request (the answer streams back through unchanged).
import { createServer, request, type Server } from "node:http";

export interface RecordedRequest {
  path: string;
  body: unknown;
}

export interface RecordingProxy {
  url: string;
  /** Where requests go on to (aimock's URL, known once it has started). */
  forwardTo(target: string): void;
  requests(): RecordedRequest[];
  stop(): Promise<void>;
}

export async function startRecordingProxy(): Promise<RecordingProxy> {
  let target: URL | null = null;
  const recorded: RecordedRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks);
      recorded.push({ path: req.url ?? "", body: parsedBody(raw) });
      if (!target) return void res.writeHead(502).end("no target yet");
      const upstream = request(
        new URL(req.url ?? "/", target),
        { method: req.method, headers: { ...req.headers, host: target.host } },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on("error", () => res.headersSent || res.writeHead(502).end());
      upstream.end(raw);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    forwardTo: (url) => {
      target = new URL(url);
    },
    requests: () => [...recorded],
    stop: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

function parsedBody(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString("utf8"));
  } catch {
    return raw.toString("utf8");
  }
}
