// npm run tokens -- list [--name NAME] [--remote]
// npm run tokens -- revoke <token id> [--remote]          the token and every session it opened
// npm run tokens -- sign-out-everywhere --name NAME [--remote]   every browser session of a user
// What an operator needs when a token leaks or a laptop is lost. Revocation takes effect on the
// next request; open WebSockets close on their next frame or within seconds while a reply streams.
import { parseArgs } from "node:util";
import { sqlString, wrangler } from "./lib/wrangler.mjs";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    name: { type: "string" },
    remote: { type: "boolean", default: false },
    // The deployed environment --remote reaches (wrangler.toml [env.*]).
    env: { type: "string", default: "production" },
    "persist-to": { type: "string" },
  },
});
const [command, id] = positionals;
const where = values.remote
  ? ["--remote", "--env", values.env]
  : ["--local", ...(values["persist-to"] ? ["--persist-to", values["persist-to"]] : [])];
const sql = (command) =>
  JSON.parse(
    wrangler(["d1", "execute", "DB", ...where, "--yes", "--json", "--command", command], {
      capture: true,
    }),
  );
const fail = (message) => {
  console.error(message);
  process.exit(2);
};
const when = (ms) => (ms === null ? "—" : new Date(ms).toISOString().replace(/\.\d+Z$/, "Z"));

if (command === "list") {
  const filter = values.name ? `WHERE u.name = ${sqlString(values.name)}` : "";
  const [result] = sql(
    `SELECT t.id, u.name AS user, t.label, t.created_at, t.expires_at, t.last_used_at, (SELECT COUNT(*) FROM sessions s WHERE s.token_id = t.id AND s.expires_at > ${Date.now()}) AS sessions FROM api_tokens t JOIN users u ON u.id = t.user_id ${filter} ORDER BY u.name, t.created_at`,
  );
  const rows = result?.results ?? [];
  if (rows.length === 0) console.log("No tokens.");
  for (const r of rows)
    console.log(
      `${r.id}  ${r.user}  ${JSON.stringify(r.label)}  created ${when(r.created_at)}  expires ${when(r.expires_at)}  last used ${when(r.last_used_at)}  sessions ${r.sessions}`,
    );
} else if (command === "revoke") {
  if (!id) fail("Which token? `npm run tokens -- list` shows the ids.");
  const [, gone] = sql(
    `DELETE FROM sessions WHERE token_id = ${sqlString(id)}; DELETE FROM api_tokens WHERE id = ${sqlString(id)} RETURNING id;`,
  );
  if ((gone?.results ?? []).length === 0) fail(`No token with id ${id}.`);
  console.log(`Revoked token ${id} and ended its browser sessions.`);
} else if (command === "sign-out-everywhere") {
  if (!values.name) fail("Whose sessions? Pass --name NAME.");
  const [result] = sql(
    `DELETE FROM sessions WHERE user_id IN (SELECT id FROM users WHERE name = ${sqlString(values.name)}) RETURNING id;`,
  );
  console.log(
    `Ended ${(result?.results ?? []).length} browser session(s) of '${values.name}'; API tokens still work.`,
  );
} else {
  fail(
    "Usage: npm run tokens -- list [--name NAME] | revoke <id> | sign-out-everywhere --name NAME  [--remote]",
  );
}
