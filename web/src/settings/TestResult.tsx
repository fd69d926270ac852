// What "test the connection" found: the server, its protocol version and its tools, or the
// problem in words. With `choose`, each tool gets a checkbox (which tools this conversation uses).
// What the server names is shown without bidi controls: a name must not read as another. A tool
// whose name no turn can offer (tool-name-rules.ts) is listed as left out, with why, and no box.
import { withoutBidiControls as shown } from "../../../durable-objects/protocol/display-text";
import type { McpServerTest } from "../../../durable-objects/protocol/rest";
import { shownToolName, toolNameProblem } from "../../../durable-objects/protocol/tool-name-rules";

export function TestResult(props: {
  result: McpServerTest;
  choose?: { enabled: string[]; onChange: (tool: string, on: boolean) => void; disabled?: boolean };
}) {
  const { result, choose } = props;
  if (!result.ok)
    return (
      <p role="alert" className="error small test-result">
        {result.error.message}
      </p>
    );
  const { serverInfo, protocolVersion, tools } = result;
  return (
    <div className="test-result">
      <p role="status" className="small">
        Connected to {shown(serverInfo.name) || "the server"}
        {serverInfo.version && ` ${serverInfo.version}`}
        {protocolVersion && ` (MCP ${protocolVersion})`}: {tools.length}{" "}
        {tools.length === 1 ? "tool" : "tools"}.
      </p>
      {tools.length > 0 && (
        <ul className="tool-list">
          {tools.map((t) => {
            const problem = toolNameProblem(t.name);
            const names = (
              <>
                <span className="tool-name">{shown(t.title ?? t.name)}</span>
                {t.title && t.title !== t.name && <code className="small">{shown(t.name)}</code>}
              </>
            );
            return (
              <li key={t.name}>
                {problem ? (
                  <span>
                    <span className="tool-name">{shownToolName(t.name)}</span>{" "}
                    <span className="warning small">
                      Left out: {problem}, so no turn offers it to the model.
                    </span>
                  </span>
                ) : choose ? (
                  <label>
                    <input
                      type="checkbox"
                      checked={choose.enabled.includes(t.name)}
                      disabled={choose.disabled}
                      onChange={(e) => choose.onChange(t.name, e.target.checked)}
                    />
                    {names}
                  </label>
                ) : (
                  <span>{names}</span>
                )}
                {t.description && <p className="muted small">{shown(t.description)}</p>}
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
