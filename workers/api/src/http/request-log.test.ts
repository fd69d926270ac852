import { Hono } from "hono";
import { afterEach, describe, expect, it, vi } from "vitest";
import { api, createConversation, createUser } from "../../../../tests/support/helpers";
import type { AppEnv } from "../app-types";
import { requestLog } from "./request-log";

afterEach(() => vi.restoreAllMocks());

/** The structured request lines the worker logged while `run` ran. */
async function logged(run: () => Promise<Response>) {
  const lines: string[] = [];
  vi.spyOn(console, "log").mockImplementation((line: unknown) => void lines.push(String(line)));
  const res = await run();
  await res.text();
  const requests = lines.flatMap((l) => {
    try {
      const entry = JSON.parse(l) as Record<string, unknown>;
      return entry.event === "request" ? [entry] : [];
    } catch {
      return [];
    }
  });
  return { res, lines, requests };
}

describe("request logs and timings", () => {
  it("gives every API answer a request id and a Server-Timing figure", async () => {
    const { res, requests } = await logged(() => api(null, "/api/health"));
    expect(res.headers.get("server-timing")).toMatch(/^app;desc="API worker";dur=\d+(\.\d)?$/);
    const requestId = res.headers.get("x-request-id");
    expect(requestId).toBeTruthy();
    expect(requests).toEqual([
      expect.objectContaining({ requestId, method: "GET", route: "/api/health", status: 200 }),
    ]);
  });

  it("logs ids, the route pattern and the status, never the token or what was sent", async () => {
    const user = await createUser();
    const conv = await createConversation(user);
    const secret = "my private question about the budget";
    const { requests, lines } = await logged(() =>
      api(user, `/api/conversations/${conv.id}`, { method: "PATCH", json: { title: secret } }),
    );
    expect(requests).toEqual([
      expect.objectContaining({
        route: "/api/conversations/:id",
        status: 200,
        userId: user.id,
        conversationId: conv.id,
      }),
    ]);
    const all = lines.join("\n");
    expect(all).not.toContain(user.token);
    expect(all).not.toContain(secret);
  });
});

describe("LOG_LEVEL", () => {
  /** A worker with the request log and two routes, run with `LOG_LEVEL`. */
  async function linesAt(level: string) {
    const app = new Hono<AppEnv>();
    app.use("*", requestLog());
    app.get("/api/fine", (c) => c.text("ok"));
    app.get("/api/broken", (c) => c.text("down", 500));
    return logged(async () => {
      await app.request("/api/fine", {}, { LOG_LEVEL: level });
      return app.request("/api/broken", {}, { LOG_LEVEL: level });
    });
  }

  it("at warn (local development's default) writes a failed request's line, not an answered one's", async () => {
    const { requests } = await linesAt("warn");
    expect(requests).toEqual([
      expect.objectContaining({ level: "error", route: "/api/broken", status: 500 }),
    ]);
  });

  it("at info (deployed) writes both", async () => {
    const { requests } = await linesAt("info");
    expect(requests.map((r) => [r.level, r.route])).toEqual([
      ["info", "/api/fine"],
      ["error", "/api/broken"],
    ]);
  });
});
