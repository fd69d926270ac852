// A user's sign-in to one server, as the settings panel shows it: a state and a sentence.
import type { McpSignIn } from "../../protocol/rest";
import type { ConnectionRow } from "./connection-store";
import { missingScopes } from "./scopes";

export function signInStatus(row: ConnectionRow): McpSignIn {
  const extra = {
    ...(row.account && { account: row.account }),
    ...(row.scopes && { scopes: row.scopes }),
    ...(row.error_code && { errorCode: row.error_code }),
  };
  switch (row.status) {
    case "connected": {
      const who = row.account ? ` as ${row.account}` : "";
      const what = row.scopes ? ` (scopes: ${row.scopes})` : "";
      return { status: "connected", message: `Connected${who}${what}.`, ...extra };
    }
    case "sign_in_again":
      if (row.error_code === "insufficient_scope") {
        const wanted = missingScopes(row.requested_scopes, row.scopes).join(" ");
        return {
          status: "sign_in_again",
          message: `This server needs more access${wanted ? ` (scopes: ${wanted})` : ""} for some of its tools. Press Sign in again to grant it; its other tools keep working meanwhile.`,
          ...extra,
        };
      }
      return {
        status: "sign_in_again",
        message:
          "The sign-in expired or was revoked, so this server is skipped. Press Sign in again.",
        ...extra,
      };
    case "needs_sign_in":
      return {
        status: "needs_sign_in",
        message: "This server needs you to sign in before its tools can be used. Press Connect.",
        ...extra,
      };
    case "error":
      return {
        status: "error",
        message: row.error_message ?? "Signing in failed. Press Connect to try again.",
        ...extra,
      };
  }
}
