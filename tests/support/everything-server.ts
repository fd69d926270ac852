// @modelcontextprotocol/server-everything in streamable HTTP mode on 127.0.0.1: a third-party MCP server.
import { spawn } from "node:child_process";
import type { LLMock } from "@copilotkit/aimock";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";

const entry = fileURLToPath(
  new URL(
    "../../node_modules/@modelcontextprotocol/server-everything/dist/index.js",
    import.meta.url,
  ),
);

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const a = s.address();
      s.close(() => resolve(typeof a === "object" && a ? a.port : 0));
    });
  });
}

export async function startEverythingServer(): Promise<{ url: string; stop: () => void }> {
  const port = await freePort();
  const child = spawn(process.execPath, [entry, "streamableHttp"], {
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1" },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let log = "";
  await new Promise<void>((resolve, reject) => {
    const t = setTimeout(
      () => reject(new Error(`server-everything did not start:\n${log}`)),
      20_000,
    );
    child.stderr?.on("data", (d) => {
      log += d;
      if (/listening on port/i.test(log)) {
        clearTimeout(t);
        resolve();
      }
    });
    child.on("exit", () => reject(new Error(`server-everything exited:\n${log}`)));
  });
  return { url: `http://127.0.0.1:${port}/mcp`, stop: () => child.kill("SIGTERM") };
}

/** The model's side of the content tests: each question calls one server-everything tool. */
export function addEverythingContentFixtures(mock: LLMock): void {
  mock.on(
    { userMessage: /^everything content .* please$/, hasToolResult: true },
    { content: "Done with the content." },
  );
  const call = (id: string, tool: string, args: Record<string, unknown>) => ({
    toolCalls: [{ id, name: `everything__${tool}`, arguments: JSON.stringify(args) }],
  });
  mock.onMessage(
    /^everything content text resource please$/,
    call("ec1", "get-resource-reference", { resourceType: "Text", resourceId: 1 }),
  );
  mock.onMessage(
    /^everything content blob resource please$/,
    call("ec2", "get-resource-reference", { resourceType: "Blob", resourceId: 2 }),
  );
  mock.onMessage(
    /^everything content links please$/,
    call("ec3", "get-resource-links", { count: 2 }),
  );
  mock.onMessage(
    /^everything content gzip please$/,
    call("ec4", "gzip-file-as-resource", {
      name: "hello.txt.gz",
      data: "data:text/plain;base64,SGVsbG8gZnJvbSB0aGUgdGVzdA==",
      outputType: "resource",
    }),
  );
  mock.onMessage(
    /^everything content annotated please$/,
    call("ec5", "get-annotated-message", { messageType: "success", includeImage: true }),
  );
}
