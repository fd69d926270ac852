// The SDK builds an error answer from McpError.message, which already reads "MCP error <code>:
// …"; a client then prefixes its own, and people read "MCP error -32602: MCP error -32602: …".
// The code travels in `error.code`, so the message on the wire is just the sentence.
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { isJSONRPCError } from "@modelcontextprotocol/sdk/types.js";

const PREFIX = /^(MCP error -?\d+: )+/;

export function plainErrorMessages(transport: Transport): void {
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    if (isJSONRPCError(message) && PREFIX.test(message.error.message))
      return send(
        {
          ...message,
          error: { ...message.error, message: message.error.message.replace(PREFIX, "") },
        },
        options,
      );
    return send(message, options);
  };
}
