// The browser side of an MCP sign-in: a popup opened in the click itself (so it is not blocked),
// pointed at the authorization page once the API answers; a full-page redirect when popups are
// blocked. The callback page reports back by postMessage and on a same-origin channel.
import { useEffect } from "react";
import { z } from "zod";
import { settingsApi } from "./settings-api";
import { rememberReturn, sessionStore } from "./sign-in-return";

const CHANNEL = "mcp-oauth";

/** What the callback page reports (workers/api/src/routes/mcp-oauth-callback-page.ts). */
const SignInResult = z.object({
  type: z.literal(CHANNEL),
  ok: z.boolean(),
  message: z.string(),
  serverId: z.string().nullable(),
});
export type SignInResult = z.infer<typeof SignInResult>;

export type ConnectOutcome =
  { kind: "opened" } | { kind: "connected" } | { kind: "failed"; message: string };

export async function startSignIn(
  serverId: string,
  client?: { clientId: string; clientSecret?: string },
): Promise<ConnectOutcome> {
  const popup = window.open("", CHANNEL, "popup,width=520,height=720");
  try {
    const result = await settingsApi.connectMcpServer(serverId, {
      display: popup ? "popup" : "redirect",
      ...(client?.clientId && { clientId: client.clientId }),
      ...(client?.clientSecret && { clientSecret: client.clientSecret }),
    });
    if (result.kind === "redirect") {
      if (popup) popup.location.href = result.authorizationUrl;
      else {
        rememberReturn(sessionStore(), window.location.search);
        window.location.assign(result.authorizationUrl);
      }
      return { kind: "opened" };
    }
    popup?.close();
    return result.kind === "connected"
      ? { kind: "connected" }
      : { kind: "failed", message: result.problem.message };
  } catch (err) {
    popup?.close();
    throw err;
  }
}

/** Calls `onDone` when a sign-in window reports that it finished (either way), with its result. */
export function useSignInResults(onDone: (result: SignInResult) => void) {
  useEffect(() => {
    const report = (data: unknown) => {
      const result = SignInResult.safeParse(data);
      if (result.success) onDone(result.data);
    };
    const onMessage = (e: MessageEvent) => {
      if (e.origin === window.location.origin) report(e.data);
    };
    window.addEventListener("message", onMessage);
    const channel = typeof BroadcastChannel === "function" ? new BroadcastChannel(CHANNEL) : null;
    if (channel) channel.onmessage = (e) => report(e.data);
    return () => {
      window.removeEventListener("message", onMessage);
      channel?.close();
    };
  }, [onDone]);
}
