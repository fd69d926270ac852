import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type {
  Conversation,
  McpServerTest,
  ProviderInfo,
} from "../../../durable-objects/protocol/rest";
import { SettingsPanel } from "./SettingsPanel";
import { TestResult } from "./TestResult";

const conversation: Conversation = {
  id: "c1",
  title: "Trials",
  provider: "openai",
  model: "gpt-5-mini",
  mode: "normal",
  settings: { maxSteps: 12, blockedServers: ["mcp-remote"] },
  createdAt: 0,
  updatedAt: 0,
};
const providers: ProviderInfo[] = [
  { id: "anthropic", configured: true, defaultModel: "claude-x", models: ["claude-x"] },
  { id: "openai", configured: false, defaultModel: "gpt-5", models: ["gpt-5", "gpt-5-mini"] },
];
const noop = () => undefined;

const render = () =>
  renderToStaticMarkup(
    <SettingsPanel
      conversation={conversation}
      providers={providers}
      onConversationChange={noop}
      onClose={noop}
      onSignOut={noop}
    />,
  );

describe("SettingsPanel", () => {
  it("shows the conversation's provider, model and step limit", () => {
    const html = render();
    expect(html).toContain('role="dialog" aria-label="Settings"');
    expect(html).toMatch(/<option value="openai" selected="">openai \(not configured\)<\/option>/);
    expect(html).toContain('value="gpt-5-mini"');
    expect(html).toMatch(/Step limit<input type="number" min="1" max="20" step="1" value="12"/);
    // The provider's models are offered as suggestions.
    expect(html).toMatch(
      /<datalist[^>]*><option value="gpt-5"><\/option><option value="gpt-5-mini">/,
    );
  });

  it("lists the built-in server as unused when the conversation blocks it, with a Test button", () => {
    const html = render();
    expect(html).toMatch(
      /<h4 id="[^"]+">mcp-remote<\/h4><label><input type="checkbox"\/>Use in this conversation/,
    );
    expect(html).toContain(">Test</button>");
    expect(html).toContain(">Close</button>");
    expect(html).toContain(">Sign out</button>");
    expect(html).toContain(">Test connection</button>");
    expect(html).toContain(">Add server</button>");
  });
});

describe("TestResult", () => {
  it("lists tools with descriptions, and checkboxes when choosing", () => {
    const ok: McpServerTest = {
      ok: true,
      serverInfo: { name: "everything", version: "2.0" },
      protocolVersion: "2025-11-25",
      tools: [
        { name: "echo", title: "Echo Tool", description: "Echoes <b>back</b>" },
        { name: "get-sum", description: "Adds" },
      ],
    };
    const plain = renderToStaticMarkup(<TestResult result={ok} />);
    expect(plain).toContain("Connected to everything 2.0 (MCP 2025-11-25): 2 tools.");
    expect(plain).toContain("Echoes &lt;b&gt;back&lt;/b&gt;");
    expect(plain).not.toContain("checkbox");
    const choosing = renderToStaticMarkup(
      <TestResult result={ok} choose={{ enabled: ["echo"], onChange: noop }} />,
    );
    expect(choosing).toMatch(/checked=""\/><span class="tool-name">Echo Tool<\/span><code/);
    expect(choosing.match(/type="checkbox"/g)).toHaveLength(2);
  });

  it("says what went wrong in words", () => {
    const html = renderToStaticMarkup(
      <TestResult
        result={{
          ok: false,
          error: { code: "unauthorized", message: "example.com answered 401. Check the headers." },
        }}
      />,
    );
    expect(html).toContain('role="alert"');
    expect(html).toContain("Check the headers.");
  });
});
