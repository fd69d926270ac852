// web/public/sw.js's events, run in Node against an in-memory Cache Storage (the real browser
// runs it in tests/e2e/offline-shell.test.ts).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { fillServiceWorker, PLACEHOLDER } from "./sw-precache";

const ORIGIN = "https://chat.example";
const source = readFileSync(fileURLToPath(new URL("../public/sw.js", import.meta.url)), "utf8");

class MemoryCache {
  readonly entries = new Map<string, Response>();
  async match(request: Request | string) {
    return this.entries
      .get(new URL(typeof request === "string" ? request : request.url, ORIGIN).href)
      ?.clone();
  }
  async put(request: Request | string, response: Response) {
    this.entries.set(
      new URL(typeof request === "string" ? request : request.url, ORIGIN).href,
      response,
    );
  }
  async addAll(requests: Array<Request | string>) {
    const answers = await Promise.all(
      requests.map(async (r) => {
        const answer = await server(
          new Request(new URL(typeof r === "string" ? r : r.url, ORIGIN)),
        );
        if (!answer.ok) throw new TypeError(`addAll: ${answer.status}`);
        return [r, answer] as const;
      }),
    );
    for (const [r, answer] of answers) await this.put(r, answer);
  }
}

class MemoryCaches {
  readonly stores = new Map<string, MemoryCache>();
  async open(name: string) {
    if (!this.stores.has(name)) this.stores.set(name, new MemoryCache());
    return this.stores.get(name)!;
  }
  async keys() {
    return [...this.stores.keys()];
  }
  async delete(name: string) {
    return this.stores.delete(name);
  }
  async match(request: Request | string) {
    for (const cache of this.stores.values()) {
      const found = await cache.match(request);
      if (found) return found;
    }
    return undefined;
  }
}

// The server: a page naming its script, the shell's files, hashed files, and the single-page
// fallback (the page, 200) for anything else, as Workers static assets answer.
let page = '<script type="module" src="/assets/index-A.js"></script>';
let online = true;
const fetched: string[] = [];
async function server(request: Request): Promise<Response> {
  if (!online) throw new TypeError("Failed to fetch");
  const path = new URL(request.url).pathname;
  fetched.push(path);
  const basic = (body: string, type: string) => {
    const r = new Response(body, { status: 200, headers: { "content-type": type } });
    Object.defineProperty(r, "type", { value: "basic" });
    return r;
  };
  if (/^\/assets\/.*-[A-Z]\.js$/.test(path)) return basic(`// ${path}`, "text/javascript");
  if (path === "/manifest.webmanifest") return basic("{}", "application/manifest+json");
  if (path.endsWith(".svg")) return basic("<svg/>", "image/svg+xml");
  return basic(page, "text/html");
}

type Listener = (event: Record<string, unknown>) => void;

/** Runs sw.js for one build; returns its events as promises of what they waited for. */
function start(caches: MemoryCaches, assets: string[], version: string) {
  const listeners = new Map<string, Listener>();
  const self = {
    location: new URL(ORIGIN),
    addEventListener: (type: string, listener: Listener) => listeners.set(type, listener),
    skipWaiting: async () => {},
    clients: { claim: async () => {} },
  };
  const code = fillServiceWorker(source, { version, assets });
  // A worker's relative URLs are its origin's.
  class WorkerRequest extends Request {
    constructor(input: string | Request, init?: RequestInit) {
      super(typeof input === "string" ? new URL(input, ORIGIN) : input, init);
    }
  }
  new Function("self", "caches", "fetch", "Request", code)(self, caches, server, WorkerRequest);
  const waitFor = (type: string, extra: Record<string, unknown> = {}) => {
    const waits: Promise<unknown>[] = [];
    let answer: Promise<Response> | undefined;
    listeners.get(type)!({
      ...extra,
      waitUntil: (p: Promise<unknown>) => waits.push(p),
      respondWith: (p: Promise<Response>) => (answer = p),
    });
    return { done: Promise.all(waits), answer };
  };
  return {
    /** What the worker answers a page that asks its build, on the port the page gave. */
    build: () =>
      new Promise<unknown>((resolve) => {
        const channel = new MessageChannel();
        channel.port1.onmessage = (e) => {
          channel.port1.close();
          resolve(e.data);
        };
        waitFor("message", { data: { type: "build?" }, ports: [channel.port2] });
      }),
    install: () => waitFor("install").done,
    activate: () => waitFor("activate").done,
    fetch: async (path: string, mode = "cors") => {
      const request = new Request(new URL(path, ORIGIN));
      Object.defineProperty(request, "mode", { value: mode });
      const { answer, done } = waitFor("fetch", { request });
      const response = await answer;
      await done;
      return response;
    },
  };
}

describe("the service worker", () => {
  it("keeps the placeholder the build fills in", () => {
    expect(source).toContain(PLACEHOLDER);
  });

  it("keeps every file of its build at install, a part never opened included, in a cache of its build", async () => {
    const caches = new MemoryCaches();
    await start(caches, ["/assets/index-A.js", "/assets/Settings-B.js"], "one").install();
    expect(await caches.keys()).toEqual(["thinking-chat-shell-one"]);
    const kept = [...(await caches.open("thinking-chat-shell-one")).entries.keys()];
    expect(kept.map((u) => new URL(u).pathname).sort()).toEqual(
      [
        "/",
        "/assets/Settings-B.js",
        "/assets/index-A.js",
        "/icon-maskable.svg",
        "/icon.svg",
        "/manifest.webmanifest",
      ].sort(),
    );
  });

  it("copies the files an earlier build kept instead of downloading them again", async () => {
    const caches = new MemoryCaches();
    await start(caches, ["/assets/index-A.js", "/assets/Settings-B.js"], "one").install();
    fetched.length = 0;
    const assets = ["/assets/index-A.js", "/assets/Settings-B.js", "/assets/Chat-C.js"];
    await start(caches, assets, "two").install();
    const two = await caches.open("thinking-chat-shell-two");
    for (const path of assets) expect(await two.match(path), path).toBeDefined();
    expect(fetched.filter((path) => path.startsWith("/assets/"))).toEqual(["/assets/Chat-C.js"]);
  });

  it("refuses to install over a page of another build, which would open blank offline", async () => {
    const caches = new MemoryCaches();
    page = '<script type="module" src="/assets/index-Z.js"></script>';
    try {
      await expect(start(caches, ["/assets/index-A.js"], "one").install()).rejects.toThrow(
        "the page is not build one's: /assets/index-Z.js",
      );
    } finally {
      page = '<script type="module" src="/assets/index-A.js"></script>';
    }
    expect(await caches.keys()).toEqual([]);
  });

  it("drops older builds' caches when it takes over, and no one else's", async () => {
    const caches = new MemoryCaches();
    await start(caches, ["/assets/index-A.js"], "one").install();
    await caches.open("thinking-chat-shell-v2"); // the cache before builds were named
    await caches.open("someone-elses");
    const two = start(caches, ["/assets/index-A.js", "/assets/Chat-C.js"], "two");
    await two.install();
    await two.activate();
    expect((await caches.keys()).sort()).toEqual(["someone-elses", "thinking-chat-shell-two"]);
  });

  it("keeps a hashed file it fetched, so it opens offline later; never the page served for a missing one", async () => {
    const caches = new MemoryCaches();
    const sw = start(caches, [], "dev");
    await sw.install();
    fetched.length = 0;
    expect(await (await sw.fetch("/assets/Late-D.js"))!.text()).toBe("// /assets/Late-D.js");
    await sw.fetch("/assets/gone.js");
    online = false;
    try {
      expect(await (await sw.fetch("/assets/Late-D.js"))!.text()).toBe("// /assets/Late-D.js");
      await expect(sw.fetch("/assets/gone.js")).rejects.toThrow("Failed to fetch");
      // Offline, a navigation gets this build's page.
      expect(await (await sw.fetch("/?c=1", "navigate"))!.text()).toBe(page);
    } finally {
      online = true;
    }
    expect(fetched).toEqual(["/assets/Late-D.js", "/assets/gone.js"]);
  });

  it("tells a page that asks which build it is", async () => {
    expect(await start(new MemoryCaches(), [], "two").build()).toEqual({ build: "two" });
  });
});
