// Turns that use MCP servers behind an OAuth sign-in, against a real authorization server and
// protected MCP server on 127.0.0.1 (see tests/support/oauth-protected-server.ts).
import { abortAllDurableObjects } from "cloudflare:test";
import { expect, inject, it } from "vitest";
import { createUser, type TestUser } from "../../tests/support/helpers";
import {
  addServer,
  callback,
  connect,
  consent,
  control,
  seenBy,
  serverState,
  signIn,
} from "../../tests/support/oauth-helpers";
import { fold, turnInNewConversation } from "../../tests/support/ws-client";

const { url, issuer } = inject("oauth");
const login = (who: string) => `${who}-${crypto.randomUUID().slice(0, 8)}`;

async function turn(user: TestUser, text = "hello") {
  const events = await turnInNewConversation(user, text);
  return {
    answered: fold(events).messages[1]?.status,
    // About the protected server only (the built-in one is absent in this test project).
    notices: events
      .flatMap((e) => (e.type === "notice" ? e.message.split(/(?<=\.) (?=The MCP server)/) : []))
      .filter((m) => m.includes("'protected'"))
      .join(" "),
    /** What the notices offer the user to do (a Connect button in the timeline). */
    actions: events.flatMap((e) => (e.type === "notice" && e.action ? [e.action] : [])),
  };
}

/** What the protected server received after `from`: whose token each request carried. */
async function receivedSince(from: number) {
  return (await seenBy(issuer)).seen.slice(from);
}

it("two users on the same server: each turn carries its own user's token", async () => {
  const alice = await createUser();
  const bob = await createUser();
  const [aliceLogin, bobLogin] = [login("alice"), login("bob")];
  await signIn(alice, await addServer(alice, "protected", url), aliceLogin);
  await signIn(bob, await addServer(bob, "protected", url), bobLogin);

  // The server is shared with other test files running at the same time: only these two users'
  // requests tell whose token a turn carried.
  const ours = async (from: number) =>
    (await receivedSince(from)).filter((r) => r.login === aliceLogin || r.login === bobLogin);
  let mark = (await seenBy(issuer)).seen.length;
  expect((await turn(alice)).answered).toBe("complete");
  const duringAlice = await ours(mark);
  expect(duringAlice.length).toBeGreaterThan(0);
  expect(new Set(duringAlice.map((r) => r.login))).toEqual(new Set([aliceLogin]));

  mark = (await seenBy(issuer)).seen.length;
  expect((await turn(bob)).answered).toBe("complete");
  const duringBob = await ours(mark);
  expect(duringBob.length).toBeGreaterThan(0);
  expect(new Set(duringBob.map((r) => r.login))).toEqual(new Set([bobLogin]));
});

it("a server that needs sign-in is skipped, the turn says so, and the rest goes on", async () => {
  const user = await createUser();
  const id = await addServer(user, "protected", url);
  const result = await turn(user);
  expect(result.answered).toBe("complete");
  expect(result.notices).toMatch(/'protected' needs you to sign in\. .*press Connect/);
  expect(result.actions).toEqual([{ kind: "mcp_sign_in", serverId: id, serverName: "protected" }]);
});

it("an expired access token is refreshed without the user noticing", async () => {
  const user = await createUser();
  const who = login("carol");
  const id = await addServer(user, "protected", url);
  await signIn(user, id, who);
  await turn(user);
  const firstToken = (await seenBy(issuer)).seen.filter((r) => r.login === who).at(-1)!;
  await control(issuer, "expire", who);

  const mark = (await seenBy(issuer)).seen.length;
  const result = await turn(user);
  expect(result.answered).toBe("complete");
  expect(result.notices).toBe("");
  const after = (await receivedSince(mark)).filter((r) => r.login === who);
  expect(after.length).toBeGreaterThan(0);
  expect(after.at(-1)!.authorization).not.toBe(firstToken.authorization);
  expect((await serverState(user, id)).signIn?.status).toBe("connected");
});

it("revoked at the provider: the server shows Sign in again, and the turn says so", async () => {
  const user = await createUser();
  const who = login("dave");
  const id = await addServer(user, "protected", url);
  await signIn(user, id, who);
  await control(issuer, "revoke", who);

  const result = await turn(user);
  expect(result.answered).toBe("complete");
  expect(result.notices).toMatch(/'protected' needs you to sign in again/);
  expect((await serverState(user, id)).signIn?.status).toBe("sign_in_again");

  // Signing in again brings it back.
  await signIn(user, id, who);
  expect((await turn(user)).notices).toBe("");
});

it("a Durable Object restart between the redirect and the callback does not lose the sign-in", async () => {
  const user = await createUser();
  const who = login("erin");
  const id = await addServer(user, "protected", url);
  await turn(user);
  const started = await connect(user, id);
  if (started.kind !== "redirect") throw new Error(JSON.stringify(started));
  await abortAllDurableObjects();
  const page = await callback(await consent(started.authorizationUrl, { login: who }));
  expect(page.status).toBe(200);

  const mark = (await seenBy(issuer)).seen.length;
  expect((await turn(user)).notices).toBe("");
  expect((await receivedSince(mark)).some((r) => r.login === who)).toBe(true);
});
