// How we introduce ourselves to an MCP server, for turns and connection tests alike. workerd
// cannot compile JSON Schema validators at run time (no eval), so tool output is checked with
// the Cloudflare validator.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker-provider.js";

export function newMcpClient(): Client {
  return new Client(
    { name: "thinking-chat", version: "0.1.0" },
    { capabilities: {}, jsonSchemaValidator: new CfWorkerJsonSchemaValidator() },
  );
}
