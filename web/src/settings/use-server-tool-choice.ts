// One server in a list a conversation (or a template) chooses from: whether it is used, its
// connection test (which lists its tools) and which of those tools are offered. The Tools
// settings and the template dialog show the same row over the same two fields.
import { useId } from "react";
import type { ConversationSettings, McpServerTest } from "../../../durable-objects/protocol/rest";
import { enabledToolsOf, isServerUsed, setEnabledTools, setServerUsed } from "./settings-state";
import { useServerTest } from "./use-server-test";

export interface ServerChoiceRow {
  name: string;
  /** The tools the server offers unless a choice says otherwise (the registry's enabledTools). */
  serverDefault: string[] | null;
  test: () => Promise<McpServerTest>;
}

export function useServerToolChoice(row: ServerChoiceRow, value: ConversationSettings) {
  const { result, testing, run } = useServerTest(row.test);
  const nameId = useId();
  const used = isServerUsed(value, row.name);
  const allTools = result?.ok ? result.tools.map((t) => t.name) : [];
  const enabled = enabledToolsOf(value, row.name, allTools, row.serverDefault);
  return {
    result,
    testing,
    /** Runs the connection test, which lists the server's tools. */
    run,
    /** The id of the row's heading, which names its group. */
    nameId,
    used,
    /** The tools offered, once a test listed them. */
    enabled,
    /** The tools this value chose, if it chose (shown before a test lists them all). */
    chosen: value.enabledTools?.[row.name],
    /** `value` with the server used or not. */
    withUsed: (on: boolean) => setServerUsed(value, row.name, on),
    /** `value` with one of the listed tools offered or not. */
    withTool: (tool: string, on: boolean) =>
      setEnabledTools(
        value,
        row.name,
        on ? [...enabled, tool] : enabled.filter((t) => t !== tool),
        allTools,
        row.serverDefault,
      ),
  };
}
