import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import type { Conversation } from "../../../durable-objects/protocol/rest";
import { SettingsPanel } from "./SettingsPanel";
import { forgetLanding, readLanding, rememberReturn } from "./sign-in-return";
import { memoryStorage, refusingStorage } from "../test-storage";

/** sessionStorage as the browser has it, in memory. */
describe("coming back from a sign-in in redirect mode", () => {
  it("reads a connected sign-in and the conversation that started it", () => {
    const storage = memoryStorage();
    rememberReturn(storage, "?c=0b7c2a44-1d9e-4c1f-9a43-2f1f0d8d7e11");
    expect(readLanding("#mcp-oauth=connected", storage)).toEqual({
      ok: true,
      message: "Signed in: the MCP server is connected.",
      search: "?c=0b7c2a44-1d9e-4c1f-9a43-2f1f0d8d7e11",
    });
  });

  it("reads a failed one, pointing at the server's own explanation", () => {
    const landing = readLanding("#mcp-oauth=failed", memoryStorage());
    expect(landing?.ok).toBe(false);
    expect(landing?.message).toMatch(/did not complete.*press Connect to try again/);
    expect(landing?.search).toBe("");
  });

  it("ignores other hashes and values", () => {
    expect(readLanding("", memoryStorage())).toBeNull();
    expect(readLanding("#token=tc_abc", memoryStorage())).toBeNull();
    expect(readLanding("#mcp-oauth=maybe", memoryStorage())).toBeNull();
  });

  it("puts back only a query of its own making", () => {
    const storage = memoryStorage();
    rememberReturn(storage, "?c=x&next=https://evil.example");
    expect(readLanding("#mcp-oauth=connected", storage)?.search).toBe("");
  });

  it("works without storage (private modes), only without reopening the conversation", () => {
    expect(() => rememberReturn(refusingStorage, "?c=a")).not.toThrow();
    expect(readLanding("#mcp-oauth=connected", refusingStorage)?.search).toBe("");
  });

  it("forgets the note and clears the address once read", () => {
    const storage = memoryStorage();
    rememberReturn(storage, "?c=abc");
    const replaceUrl = vi.fn();
    forgetLanding(storage, replaceUrl);
    expect(storage.items.size).toBe(0);
    expect(replaceUrl).toHaveBeenCalledOnce();
  });

  it("Settings shows the result at the top", () => {
    const conversation: Conversation = {
      id: "c1",
      title: "Trials",
      provider: "openai",
      model: "gpt-5",
      mode: "normal",
      settings: {},
      createdAt: 0,
      updatedAt: 0,
    };
    const noop = () => undefined;
    const html = renderToStaticMarkup(
      <SettingsPanel
        conversation={conversation}
        providers={[]}
        onConversationChange={noop}
        onClose={noop}
        onSignOut={noop}
        notice="Signed in: the MCP server is connected."
      />,
    );
    expect(html).toMatch(
      /<\/header><p role="status" class="banner info small" data-testid="settings-notice">Signed in: the MCP server is connected\.<\/p>/,
    );
  });
});
