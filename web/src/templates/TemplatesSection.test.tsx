// @vitest-environment jsdom
// Settings → Templates: built-ins can only be copied, your own edited and deleted; each action
// reaches the worker and the list shows the result.
import { act } from "react";
import type { Root } from "react-dom/client";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { mountInPage } from "../test-page";
import type { Template } from "../../../durable-objects/protocol/templates";
import { TemplatesSection } from "./TemplatesSection";

beforeAll(() => {
  // jsdom has <dialog> without its modal methods.
  const proto = HTMLDialogElement.prototype as { showModal?: () => void; close?: () => void };
  proto.showModal ??= function (this: HTMLDialogElement) {
    this.setAttribute("open", "");
  };
  proto.close ??= function (this: HTMLDialogElement) {
    this.removeAttribute("open");
  };
});

const base = { description: "", systemPrompt: "", messages: [], defaults: {} };
const graph: Template = {
  ...base,
  id: "builtin:knowledge-graph",
  name: "Knowledge-graph builder",
  builtin: true,
  createdAt: 0,
  updatedAt: 0,
};
const mine: Template = {
  ...base,
  id: "t-1",
  name: "Mine",
  builtin: false,
  createdAt: 1,
  updatedAt: 1,
};

/** A worker holding the user's templates in memory, recording each change it is sent. */
function fakeWorker(saved: { warnings?: string[] } = {}) {
  let own: Template[] = [mine];
  const calls: Array<{ method: string; path: string; body?: unknown }> = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (path: string, init?: RequestInit) => {
      const method = init?.method ?? "GET";
      const body = init?.body
        ? (JSON.parse(String(init.body)) as Record<string, unknown>)
        : undefined;
      if (path.startsWith("/api/mcp-servers")) return mcpServers(path);
      if (method !== "GET") calls.push({ method, path, body });
      if (method === "GET") return Response.json({ items: [graph, ...own] });
      if (method === "POST") {
        const created = { ...base, ...body, id: "t-2", builtin: false, createdAt: 2, updatedAt: 2 };
        own = [...own, created as unknown as Template];
        return Response.json({ ...created, ...saved }, { status: 201 });
      }
      if (method === "PATCH") {
        own = own.map((t) => (path.endsWith(t.id) ? ({ ...t, ...body } as Template) : t));
        return Response.json({ ...own.find((t) => path.endsWith(t.id)), ...saved });
      }
      own = own.filter((t) => !path.endsWith(t.id));
      return new Response(null, { status: 204 });
    }),
  );
  return calls;
}

/** The user's one MCP server ("papers", two tools) and the built-in one, as the worker lists them. */
function mcpServers(path: string): Response {
  if (path === "/api/mcp-servers")
    return Response.json({
      items: [
        {
          id: "s-1",
          name: "papers",
          url: "https://papers.example/mcp",
          headers: {},
          enabled: true,
          timeoutMs: 30_000,
          enabledTools: null,
          createdAt: 0,
          updatedAt: 0,
          maxTotalTimeoutMs: 600_000,
        },
      ],
    });
  const tools = path.includes("/s-1/") ? ["search", "fetch_pdf"] : ["search_pubmed"];
  return Response.json({
    ok: true,
    serverInfo: { name: "test", version: "1" },
    protocolVersion: "2025-06-18",
    tools: tools.map((name) => ({ name })),
  });
}

let root: Root;
let host: HTMLElement;
afterEach(() => {
  vi.unstubAllGlobals();
});

async function show() {
  ({ host, root } = mountInPage());
  await act(async () => root.render(<TemplatesSection providers={[]} />));
}

const rows = () =>
  [...host.querySelectorAll("ul[aria-label='Templates'] li")].map((li) => li.textContent);
const buttonIn = (rowText: string, label: string) =>
  [
    ...[...host.querySelectorAll("li")]
      .find((li) => li.textContent?.startsWith(rowText))!
      .querySelectorAll("button"),
  ].find((b) => b.textContent === label)!;
const dialogButton = (label: string) =>
  [...host.querySelectorAll("dialog button")].find((b) => b.textContent === label)!;
const nameInput = () =>
  [...host.querySelectorAll("dialog label")]
    .find((l) => l.textContent?.startsWith("Name"))!
    .querySelector("input")!;

async function click(el: Element) {
  await act(async () => {
    (el as HTMLElement).click();
  });
}

function typeInto(input: HTMLInputElement, value: string) {
  act(() => {
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")!.set!.call(input, value);
    input.dispatchEvent(new Event("input", { bubbles: true }));
  });
}

describe("Settings → Templates", () => {
  it("offers only Copy on a built-in, and Edit and Delete on your own", async () => {
    fakeWorker();
    await show();
    expect(rows()).toEqual(["Knowledge-graph builder · built-inCopy", "MineEditDelete"]);
  });

  it("copies a built-in into a template of your own", async () => {
    const calls = fakeWorker();
    await show();
    await click(buttonIn("Knowledge-graph builder", "Copy"));
    expect(nameInput().value).toBe("Knowledge-graph builder (copy)");
    await click(dialogButton("Save template"));
    expect(calls).toEqual([expect.objectContaining({ method: "POST", path: "/api/templates" })]);
    expect(rows().at(-1)).toBe("Knowledge-graph builder (copy)EditDelete");
  });

  it("renames and deletes your own template", async () => {
    const calls = fakeWorker();
    await show();
    await click(buttonIn("Mine", "Edit"));
    typeInto(nameInput(), "Renamed");
    await click(dialogButton("Save template"));
    expect(calls[0]).toMatchObject({ method: "PATCH", path: "/api/templates/t-1" });
    expect(rows()).toContain("RenamedEditDelete");

    await click(buttonIn("Renamed", "Delete"));
    await click(dialogButton("Delete"));
    expect(calls[1]).toMatchObject({ method: "DELETE", path: "/api/templates/t-1" });
    expect(rows()).toEqual(["Knowledge-graph builder · built-inCopy"]);
  });

  it("shows what the worker warns about a saved template's prompt, until the next dialog opens", async () => {
    const warning =
      "{{modle}} is not a variable, so the model gets it as written. The variables are {{model}}.";
    fakeWorker({ warnings: [warning] });
    await show();
    await click(buttonIn("Mine", "Edit"));
    await click(dialogButton("Save template"));
    expect(host.querySelector("[role=status]")?.textContent).toBe(warning);
    await click(buttonIn("Mine", "Edit"));
    expect(host.querySelector("[role=status]")).toBeNull();
  });

  it("sets which servers and which of their tools a conversation from the template uses", async () => {
    const calls = fakeWorker();
    await show();
    await click(buttonIn("Mine", "Edit"));
    const server = (name: string) =>
      [...host.querySelectorAll("dialog li.server")].find(
        (li) => li.querySelector("h4")?.textContent === name,
      )!;
    await act(async () => {}); // the server list arrives
    const builtinUse = server("mcp-remote").querySelector<HTMLInputElement>("label input")!;
    await click(builtinUse);
    expect(builtinUse.checked).toBe(false);
    await click([...server("papers").querySelectorAll("button")].at(-1)!);
    const tool = (name: string) =>
      [...server("papers").querySelectorAll(".tool-list label")]
        .find((l) => l.textContent === name)!
        .querySelector("input")!;
    expect(tool("fetch_pdf").checked).toBe(true);
    await click(tool("fetch_pdf"));
    await click(dialogButton("Save template"));
    expect(calls[0]).toMatchObject({
      method: "PATCH",
      path: "/api/templates/t-1",
      body: { defaults: { blockedServers: ["mcp-remote"], enabledTools: { papers: ["search"] } } },
    });
  });
});
