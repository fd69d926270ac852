// @modelcontextprotocol/server-everything in streamable HTTP mode on 127.0.0.1: a third-party MCP server.
import { spawn } from "node:child_process";
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
