// .dev.vars holds provider keys and shared secrets: it is readable by its owner only (0600),
// also when an older version of `npm start` created it with the default mode.
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** Copies `example` to `file` with mode 0600 unless `file` exists. */
export function createPrivateCopy(example, file) {
  if (!existsSync(file)) writeFileSync(file, readFileSync(example), { mode: 0o600 });
  chmodSync(file, 0o600);
}

/** Reads KEY=VALUE lines, appends any of `defaults` that are missing, returns the result. */
export function ensureVars(file, defaults) {
  const text = existsSync(file) ? readFileSync(file, "utf8") : "";
  const vars = Object.fromEntries(
    text
      .split("\n")
      .map((l) => /^\s*([A-Z0-9_]+)\s*=\s*"?(.*?)"?\s*$/.exec(l))
      .filter(Boolean)
      .map((m) => [m[1], m[2]]),
  );
  const missing = Object.entries(defaults).filter(([k]) => !vars[k]);
  if (missing.length) {
    writeFileSync(
      file,
      text +
        (text.endsWith("\n") || !text ? "" : "\n") +
        missing.map(([k, v]) => `${k}=${v}`).join("\n") +
        "\n",
      { mode: 0o600 },
    );
    for (const [k, v] of missing) vars[k] = v;
  }
  if (existsSync(file)) chmodSync(file, 0o600);
  return vars;
}

/** Sets each of `values` in `file` (replacing its line, or appending one; undefined removes it). */
export function setVars(file, values) {
  let text = existsSync(file) ? readFileSync(file, "utf8") : "";
  for (const [key, value] of Object.entries(values)) {
    const pattern = new RegExp(`^\\s*${key}\\s*=.*(\\n|$)`, "m");
    const line = value === undefined ? "" : `${key}=${value}\n`;
    text = pattern.test(text)
      ? text.replace(pattern, line)
      : text + (text.endsWith("\n") || !text || !line ? "" : "\n") + line;
  }
  writeFileSync(file, text, { mode: 0o600 });
  chmodSync(file, 0o600);
}

// Read by our MCP worker, whose `wrangler dev` reads only its own workers/mcp-remote/.dev.vars:
// people set them in the one .dev.vars the README names, and npm start passes them on.
const MCP_REMOTE_VARS = ["NCBI_API_KEY", "NCBI_TOOL_EMAIL"];

/**
 * npm start's configuration: `.dev.vars` from the example, the secrets the two workers share
 * generated once, and the MCP worker's `.dev.vars` kept equal to ours where it reads the same
 * names. Returns the API worker's variables.
 */
export function prepareDevVars(root, generated) {
  const devVars = join(root, ".dev.vars");
  createPrivateCopy(join(root, ".dev.vars.example"), devVars);
  const apiVars = ensureVars(devVars, generated);
  const shared = ["MCP_REMOTE_TOKEN", "GRAPH_CONTEXT_SECRET", ...MCP_REMOTE_VARS];
  setVars(
    join(root, "workers/mcp-remote/.dev.vars"),
    Object.fromEntries(shared.map((k) => [k, apiVars[k] || undefined])),
  );
  return apiVars;
}
