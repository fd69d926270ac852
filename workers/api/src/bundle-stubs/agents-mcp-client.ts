// Stands in for `@modelcontextprotocol/client`, the MCP client the `agents` package carries for
// its own MCP features (Agent.addMcpServer and the connections it restores), in the API worker's
// bundle (wrangler.toml `alias`). This app builds its MCP connections on @modelcontextprotocol/sdk
// instead (durable-objects/mcp/, DESIGN.md: agents' client cannot take a custom fetch), adds no
// server through agents, so agents never connects one. The real package is 230 KiB of script
// whose schemas are built when the worker starts.
const notBundled = (what: string) =>
  new Error(
    `${what}: agents' own MCP client is not bundled in the API worker (wrangler.toml alias); connect MCP servers through durable-objects/mcp/ instead.`,
  );

export class Client {
  constructor() {
    throw notBundled("Client");
  }
}

export class StreamableHTTPClientTransport {
  constructor() {
    throw notBundled("StreamableHTTPClientTransport");
  }
}

export class SSEClientTransport {
  constructor() {
    throw notBundled("SSEClientTransport");
  }
}

/** Never thrown here: no transport of this package is ever made. */
export class SdkHttpError extends Error {
  readonly status = 0;
}

export function validateClientMetadataUrl(): never {
  throw notBundled("validateClientMetadataUrl");
}
