import { renderToStaticMarkup } from "react-dom/server";
import { expect, it } from "vitest";
import { TestResult } from "./TestResult";

it("lists a tool whose name no turn can offer as left out, with why, and gives it no box", () => {
  const html = renderToStaticMarkup(
    <TestResult
      result={{
        ok: true,
        serverInfo: { name: "notes", version: "1.0" },
        protocolVersion: "2025-06-18",
        tools: [{ name: "list_notes" }, { name: "list\u202Eseton" }, { name: "x".repeat(130) }],
      }}
      choose={{ enabled: ["list_notes"], onChange: () => undefined }}
    />,
  );
  expect(html.match(/type="checkbox"/g)).toHaveLength(1);
  expect(html).toContain(
    '&quot;listU+202Eseton&quot;</span> <span class="warning small">Left out: its name holds characters that cannot be seen, so no turn offers it to the model.',
  );
  expect(html).toContain("Left out: its name is 130 characters long; MCP allows 128");
});
