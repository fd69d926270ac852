// Stands in for `ajv-formats` beside the Ajv stand-in (./ajv.ts): only Ajv's default set-up in
// the MCP SDK calls it, and that never runs here.
export default function addFormats(): never {
  throw new Error("ajv-formats is not bundled in the API worker: see bundle-stubs/ajv.ts.");
}
