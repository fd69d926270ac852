// Tools of a server skipped for its failures: not offered, but a call to one (the model saw it
// earlier) goes to the runner, which answers it, and keeps its policy: no call skips approval.
import { describe, expect, it } from "vitest";
import { buildToolNameMap } from "../providers/tool-names";
import type { CatalogTool } from "./types";
import { call, LOOKUP, runScripted, stop, toolResultsIn, toolStop } from "./test/scripted-loop";

const WIPE: CatalogTool = {
  server: "flaky",
  tool: "wipe",
  description: "Wipes for good.",
  inputSchema: { type: "object", properties: { what: { type: "string" } } },
  annotations: { destructiveHint: true },
};

const known = (skipped: string | null) => ({
  tools: {
    catalog: async () => ({ tools: [LOOKUP], known: [WIPE], warnings: [] }),
    skipped: () => skipped,
    call: async (server: string) => ({
      ok: false as const,
      error: { code: "skipped", message: `${server}: not called, it failed 3 times in a row.` },
    }),
  },
  toolNames: buildToolNameMap([LOOKUP, WIPE]),
});

describe("known tools", () => {
  it("are not offered, and a call to one is answered by its runner", async () => {
    const { requests, events } = await runScripted({
      tools: [LOOKUP],
      steps: [[call("c1", "flaky__wipe", { what: "drafts" }), toolStop], [stop]],
      deps: known("'flaky' failed 3 times in a row and is skipped for 20 s"),
    });
    expect(requests[0]?.tools?.map((t) => t.name)).not.toContain("flaky__wipe");
    expect(toolResultsIn(requests[1])).toEqual([
      expect.stringContaining("flaky: not called, it failed 3 times in a row."),
    ]);
    expect(events).toContainEqual(
      expect.objectContaining({ type: "tool_call", server: "flaky", tool: "wipe" }),
    );
  });

  it("a call to a skipped server is answered as skipped, not sent back to fix its arguments", async () => {
    const { requests } = await runScripted({
      tools: [LOOKUP],
      steps: [[call("c1", "flaky__wipe", { what: 42 }), toolStop], [stop]],
      deps: known("'flaky' failed 3 times in a row and is skipped for 20 s"),
    });
    expect(toolResultsIn(requests[1])).toEqual([expect.stringContaining("flaky: not called")]);
  });

  it("keep their policy: once the server is no longer skipped, a call that asks still asks", async () => {
    const requested: string[] = [];
    const { outcome } = await runScripted({
      tools: [LOOKUP],
      steps: [[call("c1", "flaky__wipe", { what: "drafts" }), toolStop], [stop]],
      deps: {
        ...known(null),
        approvals: {
          policy: (t) => (t.annotations?.destructiveHint ? "ask" : "allow"),
          state: () => ({ status: "none" }),
          request: (c) => void requested.push(`${c.server}:${c.tool}`),
        },
      },
    });
    expect(requested).toEqual(["flaky:wipe"]);
    expect(outcome.status).toBe("parked");
  });
});
