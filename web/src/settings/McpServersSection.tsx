// MCP servers: the user's registry (shared by all their conversations) and the form to add one.
// Header values are secrets: the API masks them, and this list shows header names only.
import { type FormEvent, useId, useState } from "react";
import type { McpServer, McpServerTest } from "../../../durable-objects/protocol/rest";
import { ApiFailure } from "../api";
import { startSignIn, useSignInResults } from "./mcp-sign-in";
import { ConfirmDialog } from "../ui/dialog";
import { ServerOptions } from "./ServerOptions";
import { ServerSignIn } from "./ServerSignIn";
import { settingsApi } from "./settings-api";
import {
  type HeaderRow,
  headerRowProblem,
  headersFromRows,
  serverNameProblem,
  urlProblem,
} from "./settings-state";
import { TestResult } from "./TestResult";

const wordsOf = (err: unknown, fallback: string) =>
  err instanceof ApiFailure ? err.message : fallback;

export function McpServersSection(props: {
  servers: McpServer[] | null;
  loadError: string | null;
  onChanged: () => void;
}) {
  const [removing, setRemoving] = useState<McpServer | null>(null);
  const headingId = useId();
  // A sign-in window that finished: show the server's new state.
  useSignInResults(props.onChanged);

  // Runs from the confirm dialog, which shows a failure itself.
  const remove = async (server: McpServer) => {
    try {
      await settingsApi.removeMcpServer(server.id);
    } catch (err) {
      throw new Error(wordsOf(err, `Could not remove ${server.name}.`), { cause: err });
    }
    setRemoving(null);
    props.onChanged();
  };

  return (
    <section className="settings-section" aria-labelledby={headingId}>
      <h3 id={headingId}>MCP servers</h3>
      <p className="muted small">
        Servers you add here are offered to all your conversations; each conversation can leave them
        out under Tools.
      </p>
      {props.loadError && (
        <p role="alert" className="error small">
          {props.loadError}
        </p>
      )}
      {props.servers && props.servers.length === 0 && (
        <p className="muted small">You have not added any servers yet.</p>
      )}
      {props.servers && props.servers.length > 0 && (
        <ul className="registry">
          {props.servers.map((s) => (
            <li key={s.id}>
              <div className="registry-text">
                <strong>{s.name}</strong>
                {!s.enabled && <span className="muted small"> (turned off)</span>}
                <span className="muted small url">{s.url}</span>
                {Object.keys(s.headers).length > 0 && (
                  <span className="muted small">Headers: {Object.keys(s.headers).join(", ")}</span>
                )}
                <ServerSignIn server={s} onChanged={props.onChanged} />
                <ServerOptions server={s} onChanged={props.onChanged} />
              </div>
              <button type="button" aria-label={`Remove ${s.name}`} onClick={() => setRemoving(s)}>
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      {removing && (
        <ConfirmDialog
          title={`Remove ${removing.name}?`}
          message={`${removing.name} (${removing.url}) will no longer be offered to any of your conversations, and your sign-in to it is forgotten.`}
          confirmLabel="Remove server"
          onConfirm={() => remove(removing)}
          onCancel={() => setRemoving(null)}
        />
      )}
      <AddServerForm taken={(props.servers ?? []).map((s) => s.name)} onAdded={props.onChanged} />
    </section>
  );
}

const emptyRow = (): HeaderRow => ({ name: "", value: "" });

function AddServerForm(props: { taken: string[]; onAdded: () => void }) {
  const [name, setName] = useState("");
  const [url, setUrl] = useState("");
  const [rows, setRows] = useState<HeaderRow[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const [result, setResult] = useState<McpServerTest | null>(null);
  const [busy, setBusy] = useState<"testing" | "adding" | null>(null);
  const headersId = useId();
  const needsSignIn = !result?.ok && result?.error.code === "needs_sign_in";

  /** The URL and headers, or null after saying what is wrong with them. */
  const checked = () => {
    const badUrl = urlProblem(url);
    if (badUrl) return void setProblem(badUrl);
    const headers = headersFromRows(rows);
    if (!headers.ok) return void setProblem(headers.error);
    setProblem(null);
    return { url: url.trim(), headers: headers.headers };
  };

  const test = async () => {
    const target = checked();
    if (!target) return;
    setBusy("testing");
    setResult(null);
    try {
      setResult(await settingsApi.testMcpUrl(target.url, target.headers));
    } catch (err) {
      setProblem(wordsOf(err, "The test could not be run."));
    } finally {
      setBusy(null);
    }
  };

  const add = async (e: FormEvent) => {
    e.preventDefault();
    const badName = serverNameProblem(name.trim(), props.taken);
    if (badName) return setProblem(badName);
    const target = checked();
    if (!target) return;
    setBusy("adding");
    try {
      const added = await settingsApi.addMcpServer({
        name: name.trim(),
        url: target.url,
        ...(Object.keys(target.headers).length > 0 && { headers: target.headers }),
      });
      // "Add and connect": the test said it needs a sign-in, so go straight to it.
      if (needsSignIn) {
        const outcome = await startSignIn(added.id);
        if (outcome.kind === "failed") setProblem(outcome.message);
      }
      setName("");
      setUrl("");
      setRows([]);
      setResult(null);
      props.onAdded();
    } catch (err) {
      setProblem(wordsOf(err, "Could not add the server."));
    } finally {
      setBusy(null);
    }
  };

  const setRow = (i: number, row: HeaderRow) =>
    setRows((all) => all.map((r, j) => (j === i ? row : r)));

  return (
    <form
      className="settings-form add-server"
      aria-label="Add MCP server"
      noValidate
      onSubmit={add}
    >
      <h4>Add a server</h4>
      <label>
        Name
        <input
          value={name}
          placeholder="pubmed"
          autoComplete="off"
          onChange={(e) => setName(e.target.value)}
        />
      </label>
      <label>
        URL
        <input
          type="url"
          value={url}
          placeholder="https://example.com/mcp"
          autoComplete="off"
          onChange={(e) => {
            setUrl(e.target.value);
            setResult(null);
          }}
        />
      </label>
      <fieldset className="header-rows" aria-describedby={headersId}>
        <legend>Headers (optional)</legend>
        <p id={headersId} className="muted small">
          For example Authorization with the value Bearer and your token. Values are stored on the
          server and never shown again.
        </p>
        {rows.map((row, i) => {
          const rowProblem = headerRowProblem(row);
          return (
            <div className="row header-row" key={i}>
              <input
                aria-label={`Header ${i + 1} name`}
                placeholder="Authorization"
                value={row.name}
                autoComplete="off"
                aria-invalid={rowProblem !== null && row.name !== ""}
                onChange={(e) => setRow(i, { ...row, name: e.target.value })}
              />
              <input
                aria-label={`Header ${i + 1} value`}
                type="password"
                placeholder="Bearer …"
                value={row.value}
                autoComplete="off"
                onChange={(e) => setRow(i, { ...row, value: e.target.value })}
              />
              <button
                type="button"
                aria-label={`Remove header ${i + 1}`}
                onClick={() => setRows((all) => all.filter((_, j) => j !== i))}
              >
                Remove
              </button>
            </div>
          );
        })}
        <button type="button" onClick={() => setRows((all) => [...all, emptyRow()])}>
          Add header
        </button>
      </fieldset>
      {problem && (
        <p role="alert" className="error small">
          {problem}
        </p>
      )}
      {result && <TestResult result={result} />}
      <div className="row">
        <button type="button" onClick={test} disabled={busy !== null}>
          {busy === "testing" ? "Testing…" : "Test connection"}
        </button>
        <button type="submit" className="primary" disabled={busy !== null}>
          {needsSignIn ? "Add and connect" : "Add server"}
        </button>
      </div>
    </form>
  );
}
