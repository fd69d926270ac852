// npm run token:create -- [--name NAME] [--label TEXT] [--remote]
// Creates the user if it does not exist, then a new API token for it. The token is printed once;
// only its SHA-256 is stored.
import { parseArgs } from "node:util";
import { createUserWithTokenSql, newToken, wrangler } from "./lib/wrangler.mjs";

const { values } = parseArgs({
  options: {
    name: { type: "string", default: "local" },
    label: { type: "string", default: "cli" },
    remote: { type: "boolean", default: false },
    "persist-to": { type: "string" },
  },
});
if (!/^[\w.@-]{1,64}$/.test(values.name)) {
  console.error("--name must be 1–64 letters, digits, '_', '-', '.', or '@'.");
  process.exit(2);
}
const token = newToken();
const where = values.remote
  ? ["--remote"]
  : ["--local", ...(values["persist-to"] ? ["--persist-to", values["persist-to"]] : [])];
wrangler(
  [
    "d1",
    "execute",
    "DB",
    ...where,
    "--yes",
    "--command",
    createUserWithTokenSql(values.name, token, values.label),
  ],
  { capture: true },
);
console.log(`Token for user '${values.name}' (shown once, keep it secret):\n\n  ${token}\n`);
console.log(`Use it as:  curl -H "Authorization: Bearer ${token}" .../api/conversations`);
