// npm run token:create -- [--name NAME] [--label TEXT] [--expires 90d] [--remote [--env staging]]
// Creates the user if it does not exist, then a new API token for it. The token is printed once;
// only its SHA-256 is stored. --expires takes minutes, hours, days or weeks: 30m, 12h, 90d, 8w.
import { parseArgs } from "node:util";
import { parseDuration } from "./lib/durations.mjs";
import { createUserWithTokenSql, newToken, wrangler } from "./lib/wrangler.mjs";

const { values } = parseArgs({
  options: {
    name: { type: "string", default: "local" },
    label: { type: "string", default: "cli" },
    expires: { type: "string" },
    remote: { type: "boolean", default: false },
    // The deployed environment --remote reaches (wrangler.toml [env.*]).
    env: { type: "string", default: "production" },
    "persist-to": { type: "string" },
  },
});
if (!/^[\w.@-]{1,64}$/.test(values.name)) {
  console.error("--name must be 1–64 letters, digits, '_', '-', '.', or '@'.");
  process.exit(2);
}
const lifetime = values.expires === undefined ? null : parseDuration(values.expires);
if (values.expires !== undefined && lifetime === null) {
  console.error("--expires takes a number and a unit: 30m, 12h, 90d or 8w.");
  process.exit(2);
}
const expiresAt = lifetime === null ? null : Date.now() + lifetime;
const token = newToken();
const where = values.remote
  ? ["--remote", "--env", values.env]
  : ["--local", ...(values["persist-to"] ? ["--persist-to", values["persist-to"]] : [])];
wrangler(
  [
    "d1",
    "execute",
    "DB",
    ...where,
    "--yes",
    "--command",
    createUserWithTokenSql(values.name, token, values.label, expiresAt),
  ],
  { capture: true },
);
console.log(`Token for user '${values.name}' (shown once, keep it secret):\n\n  ${token}\n`);
if (expiresAt !== null) console.log(`It stops working on ${new Date(expiresAt).toISOString()}.`);
console.log(`Use it as:  curl -H "Authorization: Bearer ${token}" .../api/conversations`);
