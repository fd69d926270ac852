// @vitest-environment jsdom
// The composer in a DOM: the `/` prompt picker by keyboard, the argument form with completion,
// and resources attached to the next message. The REST calls are an in-memory catalog shaped
// like server-everything's (the routes themselves are tested against it in workers/api).
import { act } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, beforeEach, expect, it } from "vitest";
import type {
  McpAttachRequest,
  McpCompletionRequest,
  McpPromptInfo,
  McpPromptRequest,
} from "../../../durable-objects/protocol/rest";
import type { CatalogApi } from "./catalog-api";
import { Composer } from "./Composer";

const prompts: McpPromptInfo[] = [
  {
    server: "everything",
    name: "simple-prompt",
    title: "Simple Prompt",
    description: "A prompt with no arguments",
    arguments: [],
    completes: true,
  },
  {
    server: "everything",
    name: "completable-prompt",
    description: "First argument choice narrows values for second argument.",
    arguments: [
      { name: "department", description: "Choose the department.", required: true },
      { name: "name", description: "Choose a team member.", required: true },
    ],
    completes: true,
  },
  {
    server: "mcp-remote",
    name: "literature_review",
    description: "Plan a literature review",
    arguments: [{ name: "topic", required: true }],
    completes: false,
  },
];

let calls: { method: string; body?: unknown }[];
const catalog: CatalogApi = {
  prompts: async () => {
    calls.push({ method: "prompts" });
    return { items: prompts, problems: [] };
  },
  prompt: async (body: McpPromptRequest) => {
    calls.push({ method: "prompt", body });
    if (body.name === "simple-prompt")
      return { ...body, text: "This is a simple prompt without arguments.", omitted: [] };
    const a = body.arguments ?? {};
    return {
      ...body,
      text: `Please promote ${a.name} to the head of the ${a.department} team.`,
      omitted: [],
    };
  },
  complete: async (body: McpCompletionRequest) => {
    calls.push({ method: "complete", body });
    const all =
      body.argument.name === "department"
        ? ["Engineering", "Sales", "Marketing", "Support"]
        : body.context?.department === "Sales"
          ? ["David", "Eve", "Frank"]
          : [];
    const values = all.filter((v) => v.startsWith(body.argument.value));
    return { supported: true, values, hasMore: false };
  },
  resources: async () => {
    calls.push({ method: "resources" });
    return {
      resources: [
        {
          server: "everything",
          uri: "demo://resource/static/document/features.md",
          name: "features.md",
        },
      ],
      templates: [
        {
          server: "everything",
          uriTemplate: "demo://resource/dynamic/text/{resourceId}",
          name: "Dynamic Text Resource",
          variables: ["resourceId"],
          completes: true,
        },
      ],
      problems: [
        {
          server: "gone",
          code: "unreachable",
          message: "The MCP server 'gone' could not be used.",
        },
      ],
    };
  },
  attach: async (body: McpAttachRequest) => {
    calls.push({ method: "attach", body });
    const uri =
      "uri" in body
        ? body.uri
        : body.uriTemplate.replace("{resourceId}", body.variables.resourceId!);
    return {
      server: body.server,
      uri,
      text: `Attached resource ${uri}: TEXT`,
      inlineChars: 4,
      artifacts: [],
    };
  },
};

let root: Root;
let host: HTMLDivElement;
let sent: string[];

beforeEach(async () => {
  sessionStorage.clear();
  calls = [];
  sent = [];
  host = document.createElement("div");
  document.body.appendChild(host);
  root = createRoot(host);
  await act(async () =>
    root.render(
      <Composer
        conversationId="c1"
        busy={false}
        onSend={(t) => sent.push(t)}
        onCancel={() => undefined}
        api={catalog}
      />,
    ),
  );
});
afterEach(async () => {
  await act(async () => root.unmount());
  host.remove();
});

const settle = () => act(() => new Promise((r) => setTimeout(r, 0)));
const box = () => host.querySelector<HTMLTextAreaElement>('textarea[aria-label="Message"]')!;
const options = () => [...host.querySelectorAll('[role="option"]')];
const selected = () => host.querySelector('[role="option"][aria-selected="true"]')?.textContent;

async function type(el: HTMLInputElement | HTMLTextAreaElement, value: string) {
  const setter = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(el), "value")!.set!;
  await act(async () => {
    setter.call(el, value);
    el.dispatchEvent(new Event("input", { bubbles: true }));
  });
  await settle();
}
async function press(el: Element, key: string) {
  await act(async () => {
    el.dispatchEvent(new KeyboardEvent("keydown", { key, bubbles: true, cancelable: true }));
  });
  await settle();
}
async function click(el: Element) {
  await act(async () => {
    (el as HTMLElement).click();
  });
  await settle();
}
const button = (name: string) =>
  [...host.querySelectorAll("button")].find((b) => b.textContent === name)!;

it("a leading / lists the servers' prompts with server and description, filtered as you type", async () => {
  await type(box(), "/");
  expect(calls.map((c) => c.method)).toEqual(["prompts"]);
  expect(options().map((o) => o.textContent)).toEqual([
    "/simple-prompteverythingA prompt with no arguments",
    "/completable-prompteverythingFirst argument choice narrows values for second argument.",
    "/literature_reviewmcp-remotePlan a literature review",
  ]);
  expect(box().getAttribute("aria-activedescendant")).toBe(options()[0]!.id);
  await type(box(), "/lit");
  expect(options().map((o) => o.querySelector(".prompt-name")?.textContent)).toEqual([
    "/literature_review",
  ]);
  await type(box(), "/nothing");
  expect(host.textContent).toContain("No prompt matches “nothing”.");
});

it("arrow keys move the highlight; Enter on a prompt without arguments puts its text in the box, and Enter sends it", async () => {
  await type(box(), "/");
  await press(box(), "ArrowDown");
  expect(selected()).toMatch(/^\/completable-prompt/);
  await press(box(), "ArrowUp");
  await press(box(), "ArrowUp");
  expect(selected()).toMatch(/^\/literature_review/);
  await press(box(), "ArrowDown");
  await press(box(), "Enter");
  expect(calls.at(-1)).toEqual({
    method: "prompt",
    body: { server: "everything", name: "simple-prompt" },
  });
  expect(box().value).toBe("This is a simple prompt without arguments.");
  expect(options()).toEqual([]);
  await press(box(), "Enter");
  expect(sent).toEqual(["This is a simple prompt without arguments."]);
  expect(box().value).toBe("");
});

it("Escape closes the picker, and the slash is then sent as typed", async () => {
  await type(box(), "/etc");
  await press(box(), "Escape");
  expect(host.querySelector('[role="listbox"]')).toBeNull();
  await press(box(), "Enter");
  expect(sent).toEqual(["/etc"]);
});

it("a prompt with arguments opens a form whose fields suggest values from the server", async () => {
  await type(box(), "/compl");
  await press(box(), "Enter");
  const form = host.querySelector('form[aria-label="Prompt completable-prompt"]')!;
  expect(form).not.toBeNull();
  const [department, name] = [...form.querySelectorAll("input")];
  await type(department!, "S");
  await act(() => new Promise((r) => setTimeout(r, 250)));
  const suggestions = () =>
    [...form.querySelectorAll('[aria-label^="Suggestions for"] button')].map((b) => b.textContent);
  expect(suggestions()).toEqual(["Sales", "Support"]);
  await click(button("Sales"));
  expect(department!.value).toBe("Sales");

  // Required fields left empty: the form says which, and asks the server nothing.
  await click(button("Use prompt"));
  expect(form.querySelector('[role="alert"]')?.textContent).toBe("Fill in name.");
  expect(calls.some((c) => c.method === "prompt")).toBe(false);

  // The second field's suggestions depend on the first.
  await type(name!, "");
  await act(async () => name!.dispatchEvent(new FocusEvent("focusin", { bubbles: true })));
  await act(() => new Promise((r) => setTimeout(r, 250)));
  expect(calls.filter((c) => c.method === "complete").at(-1)?.body).toMatchObject({
    argument: { name: "name", value: "" },
    context: { department: "Sales" },
  });
  expect(suggestions()).toEqual(["David", "Eve", "Frank"]);
  await click(button("Eve"));
  await click(button("Use prompt"));
  expect(box().value).toBe("Please promote Eve to the head of the Sales team.");
  await click(button("Send"));
  expect(sent).toEqual(["Please promote Eve to the head of the Sales team."]);
});

it("Attach lists resources and templates; what is attached goes with the next message", async () => {
  await click(button("Attach"));
  const dialog = host.querySelector('[role="dialog"][aria-label="Attach a resource"]')!;
  expect(dialog.textContent).toContain("features.md");
  expect(dialog.textContent).toContain("The MCP server 'gone' could not be used.");
  await click(
    [...dialog.querySelectorAll("button")].find((b) => b.textContent?.startsWith("features.md"))!,
  );
  expect(calls.at(-1)).toEqual({
    method: "attach",
    body: {
      server: "everything",
      uri: "demo://resource/static/document/features.md",
      maxInlineChars: 20_000,
    },
  });
  expect(host.querySelector('[aria-label="Attached to the next message"]')?.textContent).toContain(
    "demo://resource/static/document/features.md",
  );

  // A template asks for its variables first; the budget left shrinks with each attachment.
  await click(button("Attach"));
  await click(
    [...host.querySelectorAll(".resource-list button")].find((b) =>
      b.textContent?.startsWith("Dynamic Text Resource"),
    )!,
  );
  const form = host.querySelector('form[aria-label="Resource Dynamic Text Resource"]')!;
  await type(form.querySelector("input")!, "7");
  await click(button("Attach"));
  expect(calls.at(-1)).toEqual({
    method: "attach",
    body: {
      server: "everything",
      uriTemplate: "demo://resource/dynamic/text/{resourceId}",
      variables: { resourceId: "7" },
      maxInlineChars: 19_996,
    },
  });

  await type(box(), "Summarise these.");
  await press(box(), "Enter");
  expect(sent).toEqual([
    "Summarise these.\n\nAttached resource demo://resource/static/document/features.md: TEXT\n\nAttached resource demo://resource/dynamic/text/7: TEXT",
  ]);
  expect(host.querySelector('[aria-label="Attached to the next message"]')).toBeNull();
});

it("puts focus back in the message box after Cancel stops the answer, not on the page", async () => {
  const show = (busy: boolean) =>
    root.render(
      <Composer
        conversationId="c1"
        busy={busy}
        onSend={(t) => sent.push(t)}
        // The answer stops: the Cancel button goes away with it.
        onCancel={() => show(false)}
        api={catalog}
      />,
    );
  await act(async () => show(true));
  const cancel = button("Cancel");
  cancel.focus();
  await click(cancel);
  expect(button("Cancel")).toBeUndefined();
  expect(document.activeElement).toBe(box());
});

it("what is typed comes back after a reload, in its own conversation only, and goes once sent", async () => {
  await type(box(), "Half a thought");
  const reload = (conversationId: string) =>
    act(async () => {
      root.unmount();
      root = createRoot(host);
      root.render(
        <Composer
          conversationId={conversationId}
          busy={false}
          onSend={(t) => sent.push(t)}
          onCancel={() => undefined}
          api={catalog}
        />,
      );
    });
  await reload("c1");
  expect(box().value).toBe("Half a thought");
  await reload("c2");
  expect(box().value).toBe("");
  await reload("c1");
  await press(box(), "Enter");
  expect(sent).toEqual(["Half a thought"]);
  await reload("c1");
  expect(box().value).toBe("");
});
