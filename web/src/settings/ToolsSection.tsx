// Tools: for the built-in server and each of the user's servers, whether this conversation uses
// it, a connection test, (after a test) which of its tools the model is offered, and its approval
// policies. Changes are saved at once; the controls show the change before the server answered.
import { useEffect, useId, useState } from "react";
import type {
  Conversation,
  ConversationSettings,
  McpServer,
} from "../../../durable-objects/protocol/rest";
import { settingsApi } from "./settings-api";
import { BUILTIN_SERVER } from "./settings-state";
import { TestResult } from "./TestResult";
import { type ServerChoiceRow, useServerToolChoice } from "./use-server-tool-choice";
import { type PolicyChange, ToolPolicyEditor } from "./ToolPolicyEditor";
import { type PolicySets, withOverride } from "./tool-policy-state";
import type { SaveConversation } from "./use-conversation-saver";
import { saveFailureWords } from "./use-saving";

interface ServerRow extends ServerChoiceRow {
  note: string | null;
}

export function rowsOf(servers: McpServer[]): ServerRow[] {
  return [
    {
      name: BUILTIN_SERVER,
      note: "Built in: literature and clinical-trial search, charts, the knowledge graph.",
      serverDefault: null,
      test: settingsApi.testBuiltinServer,
    },
    ...servers.map((s) => ({
      name: s.name,
      note: s.enabled ? null : "Turned off for every conversation.",
      serverDefault: s.enabledTools,
      test: () => settingsApi.testMcpServer(s.id),
    })),
  ];
}

export function ToolsSection(props: {
  conversation: Conversation;
  servers: McpServer[] | null;
  save: SaveConversation;
}) {
  // The settings as the user last set them; the server's answer replaces them when it comes.
  const [settings, setSettings] = useState(props.conversation.settings);
  const [problem, setProblem] = useState<string | null>(null);
  // The user's own approval policies (for all conversations), loaded when the panel opens.
  const [userPolicies, setUserPolicies] = useState<PolicySets["user"]>({});
  const headingId = useId();

  useEffect(() => {
    let live = true;
    settingsApi
      .toolPolicies()
      .then((r) => live && setUserPolicies(r.policies))
      .catch(() => live && setProblem("Could not load your tool approval policies."));
    return () => {
      live = false;
    };
  }, []);

  const change = async (next: ConversationSettings) => {
    setSettings(next);
    setProblem(null);
    try {
      const saved = await props.save((current) => {
        // The step limit and the rest come from the latest save; the tool choices from here.
        const {
          blockedServers: _b,
          enabledTools: _e,
          toolPolicies: _p,
          ...rest
        } = current.settings;
        return {
          settings: {
            ...rest,
            ...(next.blockedServers && { blockedServers: next.blockedServers }),
            ...(next.enabledTools && { enabledTools: next.enabledTools }),
            ...(next.toolPolicies && { toolPolicies: next.toolPolicies }),
          },
        };
      });
      setSettings(saved.settings);
    } catch (err) {
      setSettings(props.conversation.settings);
      setProblem(saveFailureWords(err, "Could not save the tool settings."));
    }
  };

  const changePolicy =
    (server: string): PolicyChange =>
    async (scope, tool, policy) => {
      if (scope === "conversation") {
        const next = withOverride(settings.toolPolicies, server, tool, policy);
        const { toolPolicies: _old, ...rest } = settings;
        return change(Object.keys(next).length > 0 ? { ...rest, toolPolicies: next } : rest);
      }
      const before = userPolicies;
      setUserPolicies(withOverride(before, server, tool, policy));
      setProblem(null);
      try {
        setUserPolicies((await settingsApi.setToolPolicy(server, tool, policy)).policies);
      } catch (err) {
        setUserPolicies(before);
        setProblem(saveFailureWords(err, "Could not save your tool approval policy."));
      }
    };
  const sets: PolicySets = { conversation: settings.toolPolicies, user: userPolicies };

  return (
    <section className="settings-section" aria-labelledby={headingId}>
      <h3 id={headingId}>Tools</h3>
      {problem && (
        <p role="alert" className="error small">
          {problem}
        </p>
      )}
      <ul className="server-list">
        {rowsOf(props.servers ?? []).map((row) => (
          <ServerTools
            key={row.name}
            row={row}
            settings={settings}
            onChange={change}
            policies={sets}
            onPolicyChange={changePolicy(row.name)}
          />
        ))}
      </ul>
      {props.servers === null && <p className="muted small">Loading your MCP servers…</p>}
    </section>
  );
}

function ServerTools(props: {
  row: ServerRow;
  settings: ConversationSettings;
  onChange: (s: ConversationSettings) => void;
  policies: PolicySets;
  onPolicyChange: PolicyChange;
}) {
  const { row } = props;
  const {
    result,
    testing,
    run: test,
    nameId,
    used,
    enabled,
    chosen,
    withUsed,
    withTool,
  } = useServerToolChoice(row, props.settings);

  return (
    <li className="server">
      <div role="group" aria-labelledby={nameId}>
        <div className="row server-head">
          <h4 id={nameId}>{row.name}</h4>
          <label>
            <input
              type="checkbox"
              checked={used}
              onChange={(e) => props.onChange(withUsed(e.target.checked))}
            />
            Use in this conversation
          </label>
          <span className="spacer" />
          <button type="button" onClick={test} disabled={testing}>
            {testing ? "Testing…" : "Test"}
          </button>
        </div>
        {row.note && <p className="muted small">{row.note}</p>}
        {chosen && !result?.ok && (
          <p className="muted small">
            This conversation uses {chosen.length} of its tools; test the server to change which.
          </p>
        )}
        {result && (
          <TestResult
            result={result}
            {...(result.ok && {
              choose: {
                enabled,
                disabled: !used,
                onChange: (tool: string, on: boolean) => props.onChange(withTool(tool, on)),
              },
            })}
          />
        )}
        <ToolPolicyEditor
          server={row.name}
          builtin={row.name === BUILTIN_SERVER}
          tools={result?.ok ? result.tools : null}
          sets={props.policies}
          onChange={props.onPolicyChange}
        />
      </div>
    </li>
  );
}
