// Step-up: a protected tool answers 403 `insufficient_scope` naming a scope the sign-in lacks.
// The turn goes on without it, the server shows Sign in again saying more access is needed, and
// Connect asks for what was granted plus what was asked for; after that the tool works.
import { expect, inject, it } from "vitest";
import { createConversation, createUser, type TestUser } from "../../tests/support/helpers";
import {
  addServer,
  callback,
  connect,
  consent,
  seenBy,
  serverState,
  signIn,
} from "../../tests/support/oauth-helpers";
import { fold, TestSocket, turnEnded } from "../../tests/support/ws-client";

const { url, issuer } = inject("oauth");
const who = () => `frank-${crypto.randomUUID().slice(0, 8)}`;

/** A turn that calls the protected server's admin_report tool; the call as the answer shows it. */
async function askForReport(user: TestUser) {
  const conv = await createConversation(user);
  const ws = await TestSocket.open(user, conv.id);
  ws.send({ type: "resume", lastSeq: 0 });
  ws.send({ type: "send", clientMessageId: crypto.randomUUID(), text: "admin report please" });
  await ws.until(turnEnded, 30_000);
  ws.close();
  const answer = fold(ws.events()).messages[1]!;
  const call = answer.content.find((p) => p.type === "tool_call");
  const text = answer.content.flatMap((p) => (p.type === "text" ? [p.text] : [])).join(" ");
  return { status: answer.status, call, text };
}

it("a 403 insufficient_scope asks the user for more access, and Connect asks for the union", async () => {
  const user = await createUser();
  const login = who();
  const id = await addServer(user, "protected", url);
  await signIn(user, id, login);
  expect((await serverState(user, id)).signIn).toMatchObject({
    status: "connected",
    scopes: "mcp:tools",
  });

  const refused = await askForReport(user);
  expect(refused.status).toBe("complete");
  expect(refused.call).toMatchObject({ tool: "admin_report", status: "failed" });
  expect(refused.call?.type === "tool_call" && refused.call.summary).toMatch(
    /'protected' needs more access for this \(scopes: mcp:admin\).*Sign in again/,
  );
  expect(refused.text).toContain("That needs more access.");
  const state = (await serverState(user, id)).signIn;
  expect(state?.status).toBe("sign_in_again");
  expect(state?.errorCode).toBe("insufficient_scope");
  expect(state?.message).toContain("needs more access (scopes: mcp:admin)");
  // The grant the user has still works meanwhile: no refresh or sign-in was spent on it.
  expect(state?.scopes).toBe("mcp:tools");

  const started = await connect(user, id);
  if (started.kind !== "redirect") throw new Error(JSON.stringify(started));
  const asked = new URL(started.authorizationUrl).searchParams.get("scope")?.split(" ");
  expect(asked?.sort()).toEqual(["mcp:admin", "mcp:tools"]);
  const done = await callback(await consent(started.authorizationUrl, { login }));
  expect(done.status, done.html).toBe(200);
  expect((await serverState(user, id)).signIn).toMatchObject({
    status: "connected",
    scopes: "mcp:tools mcp:admin",
  });

  const granted = await askForReport(user);
  expect(granted.call).toMatchObject({ tool: "admin_report", status: "done" });
  expect(granted.text).toContain("Here is the admin report.");
  const calls = (await seenBy(issuer)).seen.filter(
    (r) => r.login === login && r.method === "tools/call",
  );
  expect(calls.length).toBe(2);
});
