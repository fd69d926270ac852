// API tokens & sessions: the user's tokens (revocable) and signed-in browsers ("sign out
// everywhere"). Revoking this browser's own token, or signing out everywhere, signs it out.
import { useCallback, useEffect, useId, useState } from "react";
import type { ApiTokenInfo, SessionInfo } from "../../../durable-objects/protocol/access";
import { ApiFailure } from "../api";
import { accessApi } from "./access-api";
import {
  createdWords,
  expiryWords,
  lastUsedWords,
  revokingSignsOut,
  sessionTokenName,
  signedInWords,
  tokenName,
} from "./access-state";

interface Access {
  tokens: ApiTokenInfo[];
  sessions: SessionInfo[];
}

/** What is waiting for a second click: a token's id, or "everywhere". */
export type Confirming = string | "everywhere" | null;

const wordsOf = (err: unknown, fallback: string) =>
  err instanceof ApiFailure ? err.message : fallback;

export function AccessSection(props: { onSignedOut: () => void }) {
  const { onSignedOut } = props;
  const [access, setAccess] = useState<Access | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<Confirming>(null);
  const [busy, setBusy] = useState(false);

  const reload = useCallback(async () => {
    try {
      const [tokens, sessions] = await Promise.all([accessApi.tokens(), accessApi.sessions()]);
      setAccess({ tokens: tokens.items, sessions: sessions.items });
      setProblem(null);
    } catch (err) {
      setProblem(wordsOf(err, "Could not load your tokens and sessions."));
    }
  }, []);

  useEffect(() => {
    void reload();
  }, [reload]);

  /** Runs a change; signs out when it ended this browser's session, else shows the new state. */
  const act = async (change: () => Promise<unknown>, signsOut: boolean, failure: string) => {
    setBusy(true);
    setProblem(null);
    try {
      await change();
      setConfirming(null);
      if (signsOut) return onSignedOut();
      await reload();
    } catch (err) {
      setProblem(wordsOf(err, failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <AccessLists
      access={access}
      problem={problem}
      confirming={confirming}
      busy={busy}
      now={Date.now()}
      onConfirm={setConfirming}
      onRevoke={(token) =>
        act(
          () => accessApi.revokeToken(token.id),
          revokingSignsOut(token),
          `Could not revoke ${tokenName(token)}.`,
        )
      }
      onSignOutEverywhere={() =>
        act(accessApi.signOutEverywhere, true, "Could not sign out everywhere.")
      }
    />
  );
}

export interface AccessListsProps {
  access: Access | null;
  problem: string | null;
  confirming: Confirming;
  busy: boolean;
  now: number;
  onConfirm: (what: Confirming) => void;
  onRevoke: (token: ApiTokenInfo) => void;
  onSignOutEverywhere: () => void;
}

/** The section as it looks for given data: no requests of its own. */
export function AccessLists(props: AccessListsProps) {
  const headingId = useId();
  const { access, confirming, busy, now } = props;
  return (
    <section className="settings-section access" aria-labelledby={headingId}>
      <h3 id={headingId}>API tokens &amp; sessions</h3>
      <p className="muted small">
        Tokens sign in browsers and scripts; create one with <code>npm run token:create</code>.
        Revoking a token also signs out every browser that signed in with it.
      </p>
      {props.problem && (
        <p role="alert" className="error small">
          {props.problem}
        </p>
      )}
      {!access && !props.problem && <p className="muted small">Loading…</p>}
      {access && (
        <>
          <h4>Tokens</h4>
          <ul className="registry" aria-label="API tokens">
            {access.tokens.map((token) => (
              <li key={token.id}>
                <div className="registry-text">
                  <strong>
                    {tokenName(token)}
                    {token.current && <span className="muted small"> (this one)</span>}
                  </strong>
                  <span className="muted small">
                    {createdWords(token.createdAt, now)} · {expiryWords(token.expiresAt, now)} ·{" "}
                    {lastUsedWords(token.lastUsedAt, now)}
                  </span>
                  {confirming === token.id && (
                    <span role="alert" className="small">
                      {revokingSignsOut(token)
                        ? "This browser signed in with this token: revoking it signs you out here too."
                        : "Anything still using this token will get 401 from now on."}
                    </span>
                  )}
                </div>
                {confirming === token.id ? (
                  <span className="row">
                    <button type="button" disabled={busy} onClick={() => props.onRevoke(token)}>
                      Revoke {tokenName(token)}
                    </button>
                    <button type="button" onClick={() => props.onConfirm(null)}>
                      Cancel
                    </button>
                  </span>
                ) : (
                  <button
                    type="button"
                    aria-label={`Revoke ${tokenName(token)}`}
                    onClick={() => props.onConfirm(token.id)}
                  >
                    Revoke
                  </button>
                )}
              </li>
            ))}
          </ul>
          <h4>Signed-in browsers</h4>
          {access.sessions.length === 0 && (
            <p className="muted small">No browser is signed in with a session.</p>
          )}
          <ul className="registry" aria-label="Browser sessions">
            {access.sessions.map((session) => (
              <li key={session.id}>
                <div className="registry-text">
                  <strong>
                    {session.current ? "This browser" : "Another browser"}
                    <span className="muted small">
                      {" "}
                      with {sessionTokenName(session, access.tokens)}
                    </span>
                  </strong>
                  <span className="muted small">
                    {signedInWords(session.createdAt, now)} · {expiryWords(session.expiresAt, now)}
                  </span>
                </div>
              </li>
            ))}
          </ul>
          {confirming === "everywhere" ? (
            <div className="row">
              <span role="alert" className="small">
                Every browser, this one included, must sign in again. API tokens keep working.
              </span>
              <button type="button" disabled={busy} onClick={props.onSignOutEverywhere}>
                Sign out everywhere now
              </button>
              <button type="button" onClick={() => props.onConfirm(null)}>
                Cancel
              </button>
            </div>
          ) : (
            <button type="button" onClick={() => props.onConfirm("everywhere")}>
              Sign out everywhere
            </button>
          )}
        </>
      )}
    </section>
  );
}
