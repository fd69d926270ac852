// Stands in for `mimetext` in the API worker's bundle (wrangler.toml `alias`). The `agents`
// package loads it only to build e-mail replies (Agent.replyToEmail), which this app never sends;
// the real one brings mime-db along, 150 KiB of script.
export function createMimeMessage(): never {
  throw new Error(
    "E-mail replies are not part of this app: mimetext is not bundled in the API worker (wrangler.toml alias).",
  );
}
