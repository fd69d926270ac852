// @vitest-environment jsdom
// Starting a conversation from a template: the picker lists the built-ins and the user's own,
// picking one fills the form with its defaults, and the conversation opens to be created from it.
import { act } from "react";
import type { Root } from "react-dom/client";
import { afterEach, describe, expect, it, vi } from "vitest";
import { mountInPage } from "../test-page";
import type { Conversation, ProviderInfo } from "../../../durable-objects/protocol/rest";
import type { Template } from "../../../durable-objects/protocol/templates";
import { creationQuery } from "../conversations/new-conversation";
import { NewConversationForm } from "../conversations/NewConversationForm";

const template = (id: string, name: string, extra: Partial<Template> = {}): Template => ({
  id,
  name,
  description: "",
  systemPrompt: "",
  messages: [],
  defaults: {},
  builtin: id.startsWith("builtin:"),
  createdAt: 0,
  updatedAt: 0,
  ...extra,
});

const TEMPLATES: Template[] = [
  template("builtin:knowledge-graph", "Knowledge-graph builder", {
    description: "Turn sources into a knowledge graph.",
    defaults: { mode: "graph" },
  }),
  template("t-1", "My reviewer", {
    defaults: { provider: "openai", model: "gpt-reviewer", mode: "tools" },
  }),
];

const PROVIDERS: ProviderInfo[] = [
  { id: "anthropic", configured: true, defaultModel: "claude-x", models: ["claude-x"] },
  { id: "openai", configured: true, defaultModel: "gpt-x", models: ["gpt-x"] },
];

/** The worker's answers, recorded so the test can read what the form sent. */
function fakeWorker() {
  const sent: unknown[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (path: string, init?: RequestInit) => {
      if (path === "/api/templates") return Response.json({ items: TEMPLATES });
      if (path === "/api/conversations" && init?.method === "POST") {
        sent.push(JSON.parse(String(init.body)));
        return Response.json({}, { status: 201 });
      }
      return Response.json({ error: { code: "not_found", message: "no" } }, { status: 404 });
    }),
  );
  return sent;
}

let root: Root;
let host: HTMLElement;
afterEach(() => {
  vi.unstubAllGlobals();
});

async function showForm(onCreated = vi.fn()) {
  ({ host, root } = mountInPage());
  await act(async () => {
    root.render(
      <NewConversationForm providers={PROVIDERS} onCreated={onCreated} onCancel={() => {}} />,
    );
  });
  return onCreated;
}

const select = (label: string) =>
  [...host.querySelectorAll("select")].find((s) => s.getAttribute("aria-label") === label)!;
const modelInput = () =>
  [...host.querySelectorAll("label")]
    .find((l) => l.textContent?.trim().startsWith("Model"))!
    .querySelector("input")!;

function choose(el: HTMLSelectElement, value: string) {
  act(() => {
    Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, "value")!.set!.call(el, value);
    el.dispatchEvent(new Event("change", { bubbles: true }));
  });
}

describe("the template picker of a new conversation", () => {
  it("lists the built-ins and the user's own, under their own headings", async () => {
    fakeWorker();
    await showForm();
    const groups = [...select("Template").querySelectorAll("optgroup")].map((g) => ({
      label: g.label,
      names: [...g.querySelectorAll("option")].map((o) => o.textContent),
    }));
    expect(groups).toEqual([
      { label: "Built-in", names: ["Knowledge-graph builder"] },
      { label: "Yours", names: ["My reviewer"] },
    ]);
  });

  it("fills the form with the chosen template's defaults and says what it does", async () => {
    fakeWorker();
    await showForm();
    choose(select("Template"), "builtin:knowledge-graph");
    expect(select("Mode").value).toBe("graph");
    expect(select("Provider").value).toBe("anthropic");
    expect(host.textContent).toContain("Turn sources into a knowledge graph.");

    choose(select("Template"), "t-1");
    expect(select("Provider").value).toBe("openai");
    expect(modelInput().value).toBe("gpt-reviewer");
    expect(select("Mode").value).toBe("tools");
  });

  it("opens the new conversation at once, for its first socket to create from the chosen template", async () => {
    const sent = fakeWorker();
    const onCreated = await showForm();
    choose(select("Template"), "t-1");
    await act(async () => {
      (host.querySelector("form") as HTMLFormElement).requestSubmit();
    });
    // No request before the socket: it is the socket that creates the conversation.
    expect(sent).toEqual([]);
    const opened = onCreated.mock.calls[0]?.[0] as Conversation;
    expect(opened).toMatchObject({ provider: "openai", model: "gpt-reviewer", mode: "tools" });
    expect(opened.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Object.fromEntries(new URLSearchParams(creationQuery(opened.id) ?? ""))).toEqual({
      new: "1",
      templateId: "t-1",
      provider: "openai",
      model: "gpt-reviewer",
      mode: "tools",
    });
  });
});
