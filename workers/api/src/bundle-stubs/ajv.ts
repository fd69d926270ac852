// Stands in for `ajv` in the API worker's bundle (wrangler.toml `alias`). The MCP SDK's Client
// imports Ajv as its default JSON Schema validator, but workerd forbids Ajv's code generation,
// so our one Client (durable-objects/mcp/mcp-client.ts) is given CfWorkerJsonSchemaValidator and
// Ajv is never constructed: 140 KiB of script (ajv, ajv-formats, fast-uri) for nothing.
export default class Ajv {
  constructor() {
    throw new Error(
      "Ajv is not bundled in the API worker (workerd forbids its code generation): give the MCP Client `jsonSchemaValidator: new CfWorkerJsonSchemaValidator()`.",
    );
  }
}
