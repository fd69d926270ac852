// .dev.vars holds provider keys and shared secrets: it is readable by its owner only (0600),
// also when an older version of `npm start` created it with the default mode.
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";

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
