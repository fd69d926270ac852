// The template dialog's servers and tools: which of the user's MCP servers (and the built-in one)
// a conversation from this template uses, and, after a test lists a server's tools, which of them
// it offers the model. The same rules as a conversation's Tools settings (settings-state.ts).
import { useEffect, useState } from "react";
import type { McpServer } from "../../../durable-objects/protocol/rest";
import { settingsApi } from "../settings/settings-api";
import { TestResult } from "../settings/TestResult";
import { useServerToolChoice } from "../settings/use-server-tool-choice";
import { rowsOf } from "../settings/ToolsSection";
import type { ServerChoices } from "./template-form";

type Row = ReturnType<typeof rowsOf>[number];

/** Only the two fields a template keeps, whatever else the settings helpers carry along. */
const choicesOf = (s: ServerChoices): ServerChoices => ({
  ...(s.blockedServers && { blockedServers: s.blockedServers }),
  ...(s.enabledTools && { enabledTools: s.enabledTools }),
});

export function TemplateServerFields(props: {
  value: ServerChoices;
  onChange: (value: ServerChoices) => void;
}) {
  const [servers, setServers] = useState<McpServer[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    settingsApi
      .mcpServers()
      .then((r) => live && setServers(r.items))
      .catch(() => {
        if (!live) return;
        setServers([]);
        setProblem("Could not load your MCP servers: only the built-in server is listed.");
      });
    return () => {
      live = false;
    };
  }, []);

  return (
    <fieldset>
      <legend>Servers and tools</legend>
      {problem && (
        <p role="alert" className="error small">
          {problem}
        </p>
      )}
      <ul className="server-list">
        {rowsOf(servers ?? []).map((row) => (
          <ServerChoice key={row.name} row={row} value={props.value} onChange={props.onChange} />
        ))}
      </ul>
      {servers === null && <p className="muted small">Loading your MCP servers…</p>}
    </fieldset>
  );
}

function ServerChoice(props: {
  row: Row;
  value: ServerChoices;
  onChange: (value: ServerChoices) => void;
}) {
  const { row } = props;
  const {
    result,
    testing,
    run: listTools,
    nameId,
    used,
    enabled,
    chosen,
    withUsed,
    withTool,
  } = useServerToolChoice(row, props.value);

  return (
    <li className="server">
      <div role="group" aria-labelledby={nameId}>
        <div className="row server-head">
          <h4 id={nameId}>{row.name}</h4>
          <label>
            <input
              type="checkbox"
              checked={used}
              onChange={(e) => props.onChange(choicesOf(withUsed(e.target.checked)))}
            />
            Use
          </label>
          <span className="spacer" />
          <button type="button" onClick={listTools} disabled={testing || !used}>
            {testing ? "Listing…" : "Choose tools"}
          </button>
        </div>
        {chosen && !result?.ok && (
          <p className="muted small">
            Offers {chosen.length} of its tools; choose tools to change which.
          </p>
        )}
        {result && (
          <TestResult
            result={result}
            {...(result.ok && {
              choose: {
                enabled,
                disabled: !used,
                onChange: (tool: string, on: boolean) =>
                  props.onChange(choicesOf(withTool(tool, on))),
              },
            })}
          />
        )}
      </div>
    </li>
  );
}
