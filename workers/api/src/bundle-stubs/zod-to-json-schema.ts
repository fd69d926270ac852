// Stands in for `zod-to-json-schema` in the API worker's bundle (wrangler.toml `alias`). The MCP
// SDK and `@standard-community/standard-json` load it only to convert zod 3 schemas; this app's
// are all zod 4, which zod converts itself.
export function zodToJsonSchema(): never {
  throw new Error(
    "zod 3 schemas are not part of this app: zod-to-json-schema is not bundled in the API worker (wrangler.toml alias).",
  );
}
