// A saved MCP server's options: turned on or off for all conversations, and how long one call
// may wait for an answer. Saved with PATCH /api/mcp-servers/:id.
import { type FormEvent, useState } from "react";
import type { McpServer } from "../../../durable-objects/protocol/rest";
import { ApiFailure } from "../api";
import { settingsApi } from "./settings-api";
import {
  MAX_TIMEOUT_SECONDS,
  MIN_TIMEOUT_SECONDS,
  parseTimeoutSeconds,
} from "./server-options-state";

export function ServerOptions(props: { server: McpServer; onChanged: () => void }) {
  const { server } = props;
  const [enabled, setEnabled] = useState(server.enabled);
  const [timeout, setTimeout] = useState(String(Math.round(server.timeoutMs / 1000)));
  const [problem, setProblem] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);
  const changed = enabled !== server.enabled || timeout !== String(server.timeoutMs / 1000);

  const save = async (e: FormEvent) => {
    e.preventDefault();
    const parsed = parseTimeoutSeconds(timeout);
    if (!parsed.ok) return setProblem(parsed.error);
    setBusy(true);
    setProblem(null);
    try {
      await settingsApi.updateMcpServer(server.id, { enabled, timeoutMs: parsed.timeoutMs });
      setSaved(true);
      props.onChanged();
    } catch (err) {
      setProblem(err instanceof ApiFailure ? err.message : `Could not save ${server.name}.`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="server-options" aria-label={`Options of ${server.name}`} onSubmit={save}>
      <label>
        <input
          type="checkbox"
          checked={enabled}
          onChange={(e) => {
            setEnabled(e.target.checked);
            setSaved(false);
          }}
        />
        Turned on
      </label>
      <label>
        Timeout (seconds)
        <input
          type="number"
          min={MIN_TIMEOUT_SECONDS}
          max={MAX_TIMEOUT_SECONDS}
          step={1}
          value={timeout}
          onChange={(e) => {
            setTimeout(e.target.value);
            setSaved(false);
          }}
        />
      </label>
      <button type="submit" disabled={busy || !changed}>
        {busy ? "Saving…" : "Save"}
      </button>
      <span role="status" className="muted small">
        {saved && !changed ? "Saved." : ""}
      </span>
      {problem && (
        <p role="alert" className="error small">
          {problem}
        </p>
      )}
    </form>
  );
}
