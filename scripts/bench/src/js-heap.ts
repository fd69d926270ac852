// The JS heap of the workers under `wrangler dev`, read through its DevTools inspector (the
// Chrome DevTools Protocol): tells memory our objects hold apart from what the runtime holds
// outside the heap (SQLite, sockets, buffers), which only the process's RSS shows.
import { z } from "zod";

const Targets = z.array(z.object({ title: z.string(), webSocketDebuggerUrl: z.string() }));
const HeapUsage = z.object({ result: z.object({ usedSize: z.number(), totalSize: z.number() }) });

/** Sends CDP commands over one socket; resolves with each reply. */
export async function inspect<T>(
  url: string,
  use: (send: (method: string, params?: object) => Promise<unknown>) => Promise<T>,
) {
  // Miniflare's inspector proxy wants a local Origin from a client that names itself (undici's
  // WebSocket takes headers in its options; the DOM type does not know them).
  const ws = new WebSocket(url, { headers: { origin: "http://localhost" } } as unknown as string[]);
  await new Promise((resolve, reject) => {
    ws.addEventListener("open", resolve);
    ws.addEventListener("error", () => reject(new Error(`cannot reach the inspector at ${url}`)));
  });
  let next = 1;
  const pending = new Map<number, (reply: unknown) => void>();
  ws.addEventListener("message", (m) => {
    const reply = JSON.parse(String(m.data)) as { id?: number };
    if (reply.id !== undefined) pending.get(reply.id)?.(reply);
  });
  const send = (method: string, params: object = {}) =>
    new Promise<unknown>((resolve, reject) => {
      const id = next++;
      const timer = setTimeout(() => reject(new Error(`${method}: no reply in 15 s`)), 15_000);
      pending.set(id, (reply) => {
        clearTimeout(timer);
        resolve(reply);
      });
      ws.send(JSON.stringify({ id, method, params }));
    });
  try {
    return await use(send);
  } finally {
    ws.close();
  }
}

/** The workers `wrangler dev`'s inspector offers, each with its title and debugger socket. */
export async function inspectorTargets(inspectorPort: number) {
  const list = await fetch(`http://127.0.0.1:${inspectorPort}/json`);
  return Targets.parse(await list.json());
}

/** MiB of JS heap in use per worker (garbage included), keyed by its title. */
export async function jsHeapMiB(inspectorPort: number): Promise<Map<string, number>> {
  const heaps = new Map<string, number>();
  for (const target of await inspectorTargets(inspectorPort)) {
    const used = await inspect(target.webSocketDebuggerUrl, async (send) => {
      // workerd does not answer HeapProfiler.collectGarbage: the figure includes garbage.
      await send("Runtime.enable");
      return HeapUsage.parse(await send("Runtime.getHeapUsage")).result.usedSize;
    });
    heaps.set(target.title, used / 1024 / 1024);
  }
  return heaps;
}
