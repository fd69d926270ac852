// The development signing key serves only a development worker reached on this machine.
import { env } from "cloudflare:test";
import { expect, it } from "vitest";
import app from "../app";
import { createUser } from "../../../../tests/support/helpers";

const withoutSecret = { ...env, SIGNING_SECRET: undefined };

async function signInAt(origin: string, token: string, bindings: object) {
  return app.request(
    `${origin}/api/session`,
    {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token }),
    },
    bindings,
  );
}

it("without SIGNING_SECRET, signs cookies only for a development worker on a local address", async () => {
  const user = await createUser();
  const local = await signInAt("http://127.0.0.1:8787", user.token, withoutSecret);
  expect(local.status).toBe(200);
  const cookie = (local.headers.get("set-cookie") ?? "").split(";")[0]!;
  const me = await app.request(
    "http://127.0.0.1:8787/api/session",
    { headers: { cookie } },
    withoutSecret,
  );
  expect(me.status).toBe(200);

  // The same development key refuses to sign for, or accept cookies on, a public host name...
  const deployed = await signInAt("https://chat.example.com", user.token, withoutSecret);
  expect(deployed.status).toBe(500);
  expect(await deployed.json()).toMatchObject({ error: { code: "not_configured" } });
  const replay = await app.request(
    "https://chat.example.com/api/session",
    { headers: { cookie } },
    withoutSecret,
  );
  expect(replay.status).toBe(500);
  // ...and a production worker never uses it, even on localhost: it refuses every request.
  const production = await signInAt("http://127.0.0.1:8787", user.token, {
    ...withoutSecret,
    APP_ENV: "production",
  });
  expect(production.status).toBe(503);
  expect(await production.json()).toMatchObject({ error: { code: "not_configured" } });
  // With a secret of its own, the public host works.
  expect((await signInAt("https://chat.example.com", user.token, env)).status).toBe(200);
});
