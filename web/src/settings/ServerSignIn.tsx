// One server's OAuth sign-in in the registry list: its state in a sentence, Connect / Sign in
// again / Disconnect, the tools once connected, and a client id form for servers that do not
// let apps register themselves.
import { useState } from "react";
import type { McpServer, McpServerTest } from "../../../durable-objects/protocol/rest";
import { ApiFailure } from "../api";
import { ConfirmDialog } from "../ui/dialog";
import { startSignIn } from "./mcp-sign-in";
import { settingsApi } from "./settings-api";
import { TestResult } from "./TestResult";

const NEEDS_CLIENT = new Set(["registration_unavailable", "registration_refused"]);

export function ServerSignIn(props: { server: McpServer; onChanged: () => void }) {
  const { server } = props;
  const signIn = server.signIn;
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [waiting, setWaiting] = useState(false);
  const [tools, setTools] = useState<McpServerTest | null>(null);
  const [clientId, setClientId] = useState("");
  const [clientSecret, setClientSecret] = useState("");
  if (!signIn) return null;

  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    setProblem(null);
    try {
      await action();
    } catch (err) {
      setProblem(err instanceof ApiFailure ? err.message : "That did not work; try again.");
    } finally {
      setBusy(false);
    }
  };

  const connect = () =>
    run(async () => {
      const outcome = await startSignIn(
        server.id,
        clientId.trim()
          ? { clientId: clientId.trim(), clientSecret: clientSecret.trim() }
          : undefined,
      );
      if (outcome.kind === "failed") setProblem(outcome.message);
      setWaiting(outcome.kind === "opened");
      if (outcome.kind !== "opened") props.onChanged();
    });

  const [confirmingDisconnect, setConfirmingDisconnect] = useState(false);
  const disconnect = () =>
    run(async () => {
      setConfirmingDisconnect(false);
      await settingsApi.disconnectMcpServer(server.id);
      setTools(null);
      props.onChanged();
    });

  const showTools = () => run(async () => setTools(await settingsApi.testMcpServer(server.id)));

  const connected = signIn.status === "connected";
  return (
    <div className="sign-in" data-testid={`sign-in-${server.name}`}>
      <p role="status" className={`small ${connected ? "" : "warning"}`}>
        {signIn.message}
      </p>
      {waiting && !connected && (
        <p className="muted small">Finish signing in in the window that opened.</p>
      )}
      {problem && (
        <p role="alert" className="error small">
          {problem}
        </p>
      )}
      {!connected && signIn.errorCode && NEEDS_CLIENT.has(signIn.errorCode) && (
        <div className="row">
          <input
            aria-label={`Client ID for ${server.name}`}
            placeholder="Client ID"
            value={clientId}
            autoComplete="off"
            onChange={(e) => setClientId(e.target.value)}
          />
          <input
            aria-label={`Client secret for ${server.name}`}
            placeholder="Client secret (if any)"
            type="password"
            value={clientSecret}
            autoComplete="off"
            onChange={(e) => setClientSecret(e.target.value)}
          />
          <span className="muted small">
            Redirect URL: <code>{`${window.location.origin}/api/mcp-oauth/callback`}</code>
          </span>
        </div>
      )}
      <div className="row">
        {connected ? (
          <>
            <button type="button" disabled={busy} onClick={showTools}>
              Show tools
            </button>
            <button type="button" disabled={busy} onClick={connect}>
              Sign in again
            </button>
            <button type="button" disabled={busy} onClick={() => setConfirmingDisconnect(true)}>
              Disconnect
            </button>
          </>
        ) : (
          <button type="button" className="primary" disabled={busy} onClick={connect}>
            {signIn.status === "sign_in_again" ? "Sign in again" : "Connect"}
          </button>
        )}
      </div>
      {tools && <TestResult result={tools} />}
      {confirmingDisconnect && (
        <ConfirmDialog
          title={`Disconnect from ${server.name}?`}
          message={`Your sign-in to ${server.name} is forgotten (and revoked where the server allows it); its tools stop working until you sign in again.`}
          confirmLabel="Disconnect"
          onConfirm={async () => disconnect()}
          onCancel={() => setConfirmingDisconnect(false)}
        />
      )}
    </div>
  );
}
