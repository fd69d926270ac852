// The page the authorization server sends the browser back to. In a popup it tells the app
// (postMessage to our own origin only) and closes itself; otherwise it returns to the app.
import type { FinishResult } from "../../../../durable-objects/mcp/oauth/sign-in-flow";

export const MCP_OAUTH_MESSAGE = "mcp-oauth";

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]!,
  );

export function callbackPage(result: FinishResult): { html: string; nonce: string } {
  const nonce = crypto.randomUUID().replace(/-/g, "");
  const payload = JSON.stringify({
    type: MCP_OAUTH_MESSAGE,
    ok: result.ok,
    message: result.message,
    serverId: result.serverId ?? null,
  }).replace(/</g, "\\u003c");
  const back = `/#mcp-oauth=${result.ok ? "connected" : "failed"}`;
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${result.ok ? "Connected" : "Sign-in not completed"}</title></head>
<body style="font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem">
<h1 style="font-size:1.2rem">${result.ok ? "Connected" : "Sign-in not completed"}</h1>
<p data-testid="mcp-oauth-result">${escapeHtml(result.message)}</p>
<p><a href="${back}">Back to the app</a></p>
<script nonce="${nonce}">
const result = ${payload};
const popup = ${JSON.stringify(result.display === "popup")};
// The opener may be gone (an authorization page with its own opener policy cuts the link), so
// the app also listens on a same-origin channel.
try { new BroadcastChannel(result.type).postMessage(result); } catch {}
if (popup && window.opener) window.opener.postMessage(result, location.origin);
if (popup) window.close();
setTimeout(() => location.replace(${JSON.stringify(back)}), ${result.ok ? 1500 : 5000});
</script></body></html>`;
  return { html, nonce };
}
