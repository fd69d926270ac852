// Bursts past each limit get 429 with Retry-After and a sentence; other callers are not affected.
// Limits are lowered here through the worker's vars, as an operator would.
import { createExecutionContext, env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import {
  BASE,
  createConversation,
  createUser,
  type TestUser,
} from "../../../../tests/support/helpers";
import wranglerToml from "../../../../wrangler.toml?raw";
import type { Env } from "../../../../shared/env";
import app from "../app";
import { bindingOf, RATE_LIMITS } from "../../../../shared/rate-limit/limits";

type Vars = Partial<Env>;

/** A request through the real worker with some vars changed. */
function call(
  vars: Vars,
  path: string,
  init: { method?: string; json?: unknown; user?: TestUser | null; headers?: HeadersInit } = {},
): Promise<Response> {
  const headers = new Headers(init.headers);
  if (init.user) headers.set("authorization", `Bearer ${init.user.token}`);
  if (init.json !== undefined) headers.set("content-type", "application/json");
  const request = new Request(BASE + path, {
    method: init.method ?? "GET",
    headers,
    body: init.json === undefined ? null : JSON.stringify(init.json),
  });
  return Promise.resolve(app.fetch(request, { ...env, ...vars }, createExecutionContext()));
}

/** A caller address of its own, so tests never share a counter. */
const address = () => `203.0.113.${Math.floor(Math.random() * 250) + 1}-${crypto.randomUUID()}`;

async function expectRateLimited(res: Response, what: RegExp): Promise<void> {
  expect(res.status).toBe(429);
  const retryAfter = Number(res.headers.get("retry-after"));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
  const { error } = (await res.json()) as { error: { code: string; message: string } };
  expect(error.code).toBe("rate_limited");
  expect(error.message).toMatch(what);
  expect(error.message).toContain(`Try again in ${retryAfter} s`);
}

describe("rate limits", () => {
  it("sign-in attempts are limited per address, valid tokens included", async () => {
    const user = await createUser();
    const vars = { RATE_LIMIT_SIGN_IN: "3/60" };
    const ip = address();
    const signIn = (token: string, from = ip) =>
      call(vars, "/api/session", {
        method: "POST",
        json: { token },
        headers: { "cf-connecting-ip": from },
      });
    expect((await signIn("tc_wrong_guess_1")).status).toBe(401);
    expect((await signIn("tc_wrong_guess_2")).status).toBe(401);
    expect((await signIn(user.token)).status).toBe(200);
    await expectRateLimited(
      await signIn(user.token),
      /Too many sign-in attempts.*at most 3 a minute/,
    );
    // Another address has its own count.
    expect((await signIn(user.token, address())).status).toBe(200);
  });

  it("bad bearer tokens are limited per address, for REST and WebSocket upgrades alike", async () => {
    const user = await createUser();
    const conv = await createConversation(user);
    const vars = { RATE_LIMIT_BAD_BEARER: "2/60" };
    const ip = address();
    const withBearer = (token: string) =>
      call(vars, "/api/conversations", {
        headers: { authorization: `Bearer ${token}`, "cf-connecting-ip": ip },
      });
    expect((await withBearer("tc_guess_1")).status).toBe(401);
    const upgrade = await call(vars, `/api/conversations/${conv.id}/ws`, {
      headers: { upgrade: "websocket", authorization: "Bearer tc_guess_2", "cf-connecting-ip": ip },
    });
    expect(upgrade.status).toBe(401);
    await expectRateLimited(await withBearer("tc_guess_3"), /invalid token/);
    const upgradeAgain = await call(vars, `/api/conversations/${conv.id}/ws`, {
      headers: { upgrade: "websocket", authorization: "Bearer tc_guess_4", "cf-connecting-ip": ip },
    });
    await expectRateLimited(upgradeAgain, /invalid token/);
    // Only bad tokens are counted: the owner of a good one is not locked out by a guesser.
    expect((await withBearer(user.token)).status).toBe(200);
  });

  it("new conversations are limited per user", async () => {
    const [alice, bob] = [await createUser(), await createUser()];
    const vars = { RATE_LIMIT_NEW_CONVERSATION: "2/60" };
    const create = (user: TestUser) =>
      call(vars, "/api/conversations", { method: "POST", json: {}, user });
    expect((await create(alice)).status).toBe(201);
    expect((await create(alice)).status).toBe(201);
    await expectRateLimited(await create(alice), /Too many new conversations/);
    expect((await create(bob)).status).toBe(201);
    // Reading is not limited.
    expect((await call(vars, "/api/conversations", { user: alice })).status).toBe(200);
  });

  it("messages over HTTP (POST /chat) are limited per user, whatever the conversation", async () => {
    const user = await createUser();
    const [first, second] = [await createConversation(user), await createConversation(user)];
    const vars = { RATE_LIMIT_MESSAGE: "1/60" };
    // Every attempt counts, even one the worker refuses for its body.
    const refused = await call(vars, `/api/conversations/${first.id}/chat`, {
      method: "POST",
      json: { text: "no client message id" },
      user,
    });
    expect(refused.status).toBe(400);
    const res = await call(vars, `/api/conversations/${second.id}/chat`, {
      method: "POST",
      json: { clientMessageId: "m1", text: "hello" },
      user,
    });
    await expectRateLimited(res, /Too many messages/);
  });

  it("a /v1 resend under its Idempotency-Key is the same message: it is not counted again", async () => {
    const user = await createUser();
    const vars = { RATE_LIMIT_MESSAGE: "1/60" };
    const ask = (key: string) =>
      call(vars, "/v1/chat/completions", {
        method: "POST",
        json: { model: "thinking-chat", messages: [{ role: "user", content: "Hello there" }] },
        user,
        headers: { "idempotency-key": key },
      });
    const first = await ask("limit-1");
    expect(first.status).toBe(200);
    const resent = await ask("limit-1");
    expect(resent.status).toBe(200);
    expect(await resent.json()).toEqual(await first.json());
    await expectRateLimited(await ask("limit-2"), /Too many messages/);
  }, 60_000);

  it("MCP connection tests (new, saved, built-in) and connects share one limit per user", async () => {
    const [user, other] = [await createUser(), await createUser()];
    const vars = { RATE_LIMIT_CONNECTION_TEST: "3/60" };
    const post = (path: string, json?: unknown, who = user) =>
      call(vars, `/api/mcp-servers${path}`, { method: "POST", json, user: who });
    expect((await post("/test", { url: "not a url" })).status).toBe(400);
    expect((await post("/unknown-server/test")).status).toBe(404);
    expect((await post("/unknown-server/connect", {})).status).toBe(404);
    await expectRateLimited(await post("/builtin/test"), /Too many MCP connection tests/);
    await expectRateLimited(await post("/test", { url: "https://example.com/mcp" }), /MCP/);
    expect((await post("/unknown-server/test", undefined, other)).status).toBe(404);
  });

  it("WebSocket tickets are limited per user", async () => {
    const user = await createUser();
    const conv = await createConversation(user);
    const vars = { RATE_LIMIT_WS_TICKET: "2/60" };
    const ticket = () =>
      call(vars, `/api/conversations/${conv.id}/ws-ticket`, { method: "POST", user });
    expect((await ticket()).status).toBe(200);
    expect((await ticket()).status).toBe(200);
    await expectRateLimited(await ticket(), /Too many WebSocket tickets/);
  });

  it("a window that has passed lets the caller in again", async () => {
    const user = await createUser();
    const vars = { RATE_LIMIT_NEW_CONVERSATION: "1/1" };
    const create = () => call(vars, "/api/conversations", { method: "POST", json: {}, user });
    expect((await create()).status).toBe(201);
    const refused = await create();
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("1");
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await create()).status).toBe(201);
  });

  it("a malformed limit var is a configuration error that names the var", async () => {
    const user = await createUser();
    const res = await call({ RATE_LIMIT_NEW_CONVERSATION: "lots" }, "/api/conversations", {
      method: "POST",
      json: {},
      user,
    });
    expect(res.status).toBe(500);
    const { error } = (await res.json()) as { error: { code: string; message: string } };
    expect(error).toMatchObject({ code: "not_configured" });
    expect(error.message).toMatch(/RATE_LIMIT_NEW_CONVERSATION must be "<requests>\/<seconds>"/);
  });
});

describe("where the count is kept", () => {
  const signIns = async (vars: Vars, ip: string, times: number) => {
    const statuses: number[] = [];
    for (let i = 0; i < times; i++) {
      const res = await call(vars, "/api/session", {
        method: "POST",
        json: { token: `tc_wrong_guess_${i}` },
        headers: { "cf-connecting-ip": ip },
      });
      statuses.push(res.status);
      if (res.status === 429) expect(res.headers.get("retry-after")).toBe("60");
    }
    return statuses;
  };
  const limit = RATE_LIMITS.signIn.limit;

  it("deployed, Cloudflare's binding counts, with the numbers in wrangler.toml", async () => {
    const ip = address();
    const statuses = await signIns({ APP_ENV: "production" }, ip, limit + 1);
    expect(statuses).toEqual([...Array<number>(limit).fill(401), 429]);
    // Our own counter saw none of it: the same address is still let in where it counts.
    expect(await signIns({}, ip, 1)).toEqual([401]);
  });

  it("deployed, a failing binding falls back to our own counter", async () => {
    const failing: RateLimit = { limit: () => Promise.reject(new Error("binding unavailable")) };
    const vars = { APP_ENV: "production", SIGN_IN_LIMITER: failing };
    const statuses = await signIns(vars, address(), limit + 1);
    expect(statuses.slice(0, limit).every((s) => s === 401)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });

  it("deployed, a limit set by a var is counted by our own counter", async () => {
    const vars = { APP_ENV: "production", RATE_LIMIT_SIGN_IN: "2/60" };
    const ip = address();
    expect((await signIns(vars, ip, 2)).every((s) => s === 401)).toBe(true);
    const third = await call(vars, "/api/session", {
      method: "POST",
      json: { token: "tc_wrong_guess" },
      headers: { "cf-connecting-ip": ip },
    });
    await expectRateLimited(third, /at most 2 a minute/);
  });

  it("wrangler.toml gives Cloudflare the same limits as the defaults, in every environment", () => {
    const declared = (env: string) =>
      [
        ...wranglerToml.matchAll(
          /\[\[(?:env\.(\w+)\.)?ratelimits\]\]\s+name = "(\w+)"\s+namespace_id = "\d+"\s+simple = \{ limit = (\d+), period = (\d+) \}/g,
        ),
      ]
        .filter(([, section]) => (section ?? "") === env)
        .map(([, , name, limit, period]) => [name, Number(limit), Number(period)]);
    for (const env of ["", "staging", "production"])
      expect(declared(env)).toEqual(
        Object.values(RATE_LIMITS).map((rule) => [
          bindingOf(rule.name),
          rule.limit,
          rule.periodSeconds,
        ]),
      );
  });
});
