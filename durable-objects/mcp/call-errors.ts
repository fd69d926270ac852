// Why a tool call failed, in a sentence for the user and the model: the errors the MCP SDK throws
// are written for developers.
import { isConnectionLost } from "./response-streams";

export type CallFailure = "connection_lost" | "other";

/** What went wrong with a call, and a sentence that says it (without the server's name). */
export function describeCallError(err: unknown): { failure: CallFailure; message: string } {
  if (isConnectionLost(err))
    return {
      failure: "connection_lost",
      message:
        "the connection to the server was lost during the call, before it answered. The call was not repeated, since it may have done part of its work.",
    };
  return { failure: "other", message: err instanceof Error ? err.message : String(err) };
}
