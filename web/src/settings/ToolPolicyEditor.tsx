// Approval policies of one MCP server: for all its tools and per tool, allow / ask / never, kept
// for this conversation or for all the user's conversations. Each choice shows what it falls
// back to when left unset, and each tool the default its MCP annotations give it.
import { withoutBidiControls } from "../../../durable-objects/protocol/display-text";
import { useId, useState } from "react";
import type { McpToolInfo } from "../../../durable-objects/protocol/rest";
import { defaultPolicy, ToolPolicy } from "../../../durable-objects/protocol/tool-policy";
import {
  effectivePolicy,
  inheritedPolicy,
  inheritedServerPolicy,
  overrideOf,
  type PolicyScope,
  type PolicySets,
} from "./tool-policy-state";

export type PolicyChange = (
  scope: PolicyScope,
  tool: string | undefined,
  policy: ToolPolicy | null,
) => void;

const WORDS: Record<ToolPolicy, string> = {
  allow: "Allow (runs at once)",
  ask: "Ask (waits for approval)",
  never: "Never (not offered)",
};

export function ToolPolicyEditor(props: {
  server: string;
  builtin: boolean;
  /** The server's tools as its last test listed them; null before a test. */
  tools: McpToolInfo[] | null;
  sets: PolicySets;
  onChange: PolicyChange;
}) {
  const { server, builtin, sets } = props;
  const [scope, setScope] = useState<PolicyScope>("conversation");
  const scopeName = useId();
  const policies = sets[scope];
  // Tools with an override stay editable before the server is tested.
  const named = new Set([
    ...Object.keys(sets.conversation?.[server]?.tools ?? {}),
    ...Object.keys(sets.user[server]?.tools ?? {}),
  ]);
  const tools: McpToolInfo[] = [
    ...(props.tools ?? []),
    ...[...named].filter((n) => !props.tools?.some((t) => t.name === n)).map((name) => ({ name })),
  ];
  const serverFallback = inheritedServerPolicy(sets, scope, server);

  return (
    <details className="tool-policies">
      <summary>Approvals</summary>
      <fieldset className="row policy-scope">
        <legend className="small">Keep these choices for</legend>
        {(
          [
            ["conversation", "This conversation"],
            ["user", "All my conversations"],
          ] as const
        ).map(([value, label]) => (
          <label key={value} className="small">
            <input
              type="radio"
              name={scopeName}
              value={value}
              checked={scope === value}
              onChange={() => setScope(value)}
            />{" "}
            {label}
          </label>
        ))}
      </fieldset>
      <ul className="policy-list">
        <PolicyRow
          label={`All tools of ${server}`}
          value={overrideOf(policies, server)}
          fallback={serverFallback === "per tool" ? "each tool's own" : serverFallback}
          onChange={(p) => props.onChange(scope, undefined, p)}
        />
        {tools.map((t) => (
          <PolicyRow
            key={t.name}
            label={t.title ?? t.name}
            value={overrideOf(policies, server, t.name)}
            fallback={inheritedPolicy(sets, scope, server, t.name, t.annotations, builtin)}
            note={
              props.tools?.includes(t)
                ? `Default from its annotations: ${defaultPolicy(t.annotations, builtin)}. ` +
                  `In this conversation now: ${effectivePolicy(sets, server, t.name, t.annotations, builtin)}.`
                : "Test the server to see this tool's default."
            }
            onChange={(p) => props.onChange(scope, t.name, p)}
          />
        ))}
      </ul>
      {props.tools === null && (
        <p className="muted small">Test the server to choose a policy for each of its tools.</p>
      )}
    </details>
  );
}

function PolicyRow(props: {
  label: string;
  value: ToolPolicy | undefined;
  fallback: string;
  note?: string;
  onChange: (policy: ToolPolicy | null) => void;
}) {
  return (
    <li>
      <label className="small">
        <span className="tool-name">{withoutBidiControls(props.label)}</span>{" "}
        <select
          value={props.value ?? ""}
          onChange={(e) => {
            const chosen = ToolPolicy.safeParse(e.target.value);
            props.onChange(chosen.success ? chosen.data : null);
          }}
        >
          <option value="">{`Not set (${props.fallback})`}</option>
          {(Object.keys(WORDS) as ToolPolicy[]).map((p) => (
            <option key={p} value={p}>
              {WORDS[p]}
            </option>
          ))}
        </select>
      </label>
      {props.note && <p className="muted small">{props.note}</p>}
    </li>
  );
}
