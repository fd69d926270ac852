// Stands in for `@modelcontextprotocol/client/validators/cf-worker` beside the stand-in for the
// rest of agents' MCP client (./agents-mcp-client.ts): `agents` builds one validator when its
// module loads, so this one is real, the MCP SDK's own (the same @cfworker/json-schema validator,
// with the same `draft` option), which the worker bundles anyway.
export { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker";
