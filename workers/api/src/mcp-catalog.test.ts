// Prompts and resources of a conversation's MCP servers, against server-everything on 127.0.0.1
// (our own MCP worker is a 404 stub in this project: it shows up as a problem, not a failure).
import { env } from "cloudflare:test";
import { expect, inject, it } from "vitest";
import {
  Artifact,
  McpAttachment,
  McpCompletionResult,
  McpPromptList,
  McpPromptResult,
  McpResourceContents,
  McpResourceList,
} from "../../../durable-objects/protocol/rest";
import {
  api,
  createConversation,
  createUser,
  errorOf,
  type TestUser,
} from "../../../tests/support/helpers";

async function setUp(settings: Record<string, unknown> = {}) {
  const user = await createUser();
  await api(user, "/api/mcp-servers", {
    method: "POST",
    json: { name: "everything", url: inject("everythingUrl") },
  });
  const conv = await createConversation(user, { settings });
  return { user, base: `/api/conversations/${conv.id}/mcp`, conversationId: conv.id };
}

const post = (user: TestUser, path: string, json: unknown) =>
  api(user, path, { method: "POST", json });

async function ok<T>(res: Response, schema: { parse: (v: unknown) => T }): Promise<T> {
  if (res.status !== 200) throw new Error(`${res.status}: ${await res.text()}`);
  return schema.parse(await res.json());
}

it("lists the prompts of every server in use, with their arguments; a server that fails is named as a problem", async () => {
  const { user, base } = await setUp();
  const list = await ok(await api(user, `${base}/prompts`), McpPromptList);
  expect(list.items.map((p) => `${p.server}/${p.name}`)).toEqual(
    expect.arrayContaining([
      "everything/simple-prompt",
      "everything/args-prompt",
      "everything/completable-prompt",
    ]),
  );
  expect(list.items.find((p) => p.name === "args-prompt")).toEqual({
    server: "everything",
    name: "args-prompt",
    title: "Arguments Prompt",
    description: "A prompt with two arguments, one required and one optional",
    arguments: [
      { name: "city", description: "Name of the city", required: true },
      // The server's optional argument loses its description on the way (zod's .optional()).
      { name: "state", required: false },
    ],
    completes: true,
  });
  // Our own worker is a 404 here: its part is missing, and the answer says why.
  expect(list.problems).toEqual([
    { server: "mcp-remote", code: "not_found", message: expect.stringContaining("HTTP 404") },
  ]);
});

it("leaves out the servers the conversation blocks", async () => {
  const { user, base } = await setUp({ blockedServers: ["everything", "mcp-remote"] });
  expect(await ok(await api(user, `${base}/prompts`), McpPromptList)).toEqual({
    items: [],
    problems: [],
  });
  const res = await post(user, `${base}/prompts/get`, {
    server: "everything",
    name: "simple-prompt",
  });
  expect(res.status).toBe(404);
  expect((await errorOf(res)).message).toMatch(/No MCP server named 'everything' is in use/);
});

it("gets a prompt with its arguments as the text of a user message", async () => {
  const { user, base } = await setUp();
  const prompt = await ok(
    await post(user, `${base}/prompts/get`, {
      server: "everything",
      name: "args-prompt",
      arguments: { city: "Lyon", state: "Rhône" },
    }),
    McpPromptResult,
  );
  expect(prompt).toEqual({
    server: "everything",
    name: "args-prompt",
    text: "What's weather in Lyon, Rhône?",
    omitted: [],
  });
});

it("a prompt with an embedded resource: its text is kept, a binary one is named as left out", async () => {
  const { user, base } = await setUp();
  const get = (resourceType: string) =>
    post(user, `${base}/prompts/get`, {
      server: "everything",
      name: "resource-prompt",
      arguments: { resourceType, resourceId: "3" },
    });
  const text = await ok(await get("Text"), McpPromptResult);
  expect(text.text).toMatch(
    /includes the Text resource with id: 3[\s\S]*\n\nResource 3: This is a plaintext resource/,
  );
  expect(text.omitted).toEqual([]);
  const blob = await ok(await get("Blob"), McpPromptResult);
  expect(blob.text).toMatch(/includes the Blob resource with id: 3/);
  expect(blob.omitted).toEqual(["the binary resource demo://resource/dynamic/blob/3 (text/plain)"]);
});

it("a prompt the server refuses says what the server said", async () => {
  const { user, base } = await setUp();
  const missing = await post(user, `${base}/prompts/get`, {
    server: "everything",
    name: "args-prompt",
    arguments: {},
  });
  expect(missing.status).toBe(400);
  expect((await errorOf(missing)).message).toMatch(
    /^The MCP server 'everything' refused the request: .*city/s,
  );
  const unknown = await post(user, `${base}/prompts/get`, { server: "everything", name: "nope" });
  expect(unknown.status).toBe(400);
  expect((await errorOf(unknown)).message).toMatch(/Prompt nope not found/);
});

it("completes a prompt argument, narrowed by the arguments already chosen", async () => {
  const { user, base } = await setUp();
  const complete = (argument: { name: string; value: string }, context?: Record<string, string>) =>
    post(user, `${base}/complete`, {
      server: "everything",
      ref: { type: "prompt", name: "completable-prompt" },
      argument,
      ...(context && { context }),
    });
  expect(await ok(await complete({ name: "department", value: "E" }), McpCompletionResult)).toEqual(
    { supported: true, values: ["Engineering"], hasMore: false, total: 1 },
  );
  const names = await ok(
    await complete({ name: "name", value: "" }, { department: "Sales" }),
    McpCompletionResult,
  );
  expect(names.values).toEqual(["David", "Eve", "Frank"]);
});

it("completes a resource template's variable", async () => {
  const { user, base } = await setUp();
  const answer = await ok(
    await post(user, `${base}/complete`, {
      server: "everything",
      ref: { type: "resource", uriTemplate: "demo://resource/dynamic/text/{resourceId}" },
      argument: { name: "resourceId", value: "12" },
    }),
    McpCompletionResult,
  );
  expect(answer.values).toEqual(["12"]);
});

it("lists resources and templates (with the variables to fill in)", async () => {
  const { user, base } = await setUp();
  const list = await ok(await api(user, `${base}/resources`), McpResourceList);
  expect(list.resources).toContainEqual({
    server: "everything",
    uri: "demo://resource/static/document/features.md",
    name: "features.md",
    description: "Static document file exposed from /docs: features.md",
    mimeType: "text/markdown",
  });
  expect(list.templates).toEqual(
    expect.arrayContaining([
      {
        server: "everything",
        uriTemplate: "demo://resource/dynamic/text/{resourceId}",
        name: "Dynamic Text Resource",
        description: expect.stringContaining("Plaintext dynamic resource"),
        mimeType: "text/plain",
        variables: ["resourceId"],
        completes: true,
      },
    ]),
  );
});

it("reads a resource by URI or by template, text and binary", async () => {
  const { user, base } = await setUp();
  const byTemplate = await ok(
    await post(user, `${base}/resources/read`, {
      server: "everything",
      uriTemplate: "demo://resource/dynamic/text/{resourceId}",
      variables: { resourceId: "7" },
    }),
    McpResourceContents,
  );
  expect(byTemplate).toEqual({
    server: "everything",
    uri: "demo://resource/dynamic/text/7",
    contents: [
      {
        uri: "demo://resource/dynamic/text/7",
        mimeType: "text/plain",
        text: expect.stringMatching(/^Resource 7: This is a plaintext resource/),
      },
    ],
  });
  const blob = await ok(
    await post(user, `${base}/resources/read`, {
      server: "everything",
      uri: "demo://resource/dynamic/blob/2",
    }),
    McpResourceContents,
  );
  const item = blob.contents[0]!;
  expect("blob" in item && atob(item.blob)).toMatch(/^Resource 2: This is a base64 blob/);
});

it("a template with a variable left empty, or a resource that does not exist, is a clear error", async () => {
  const { user, base } = await setUp();
  const empty = await post(user, `${base}/resources/read`, {
    server: "everything",
    uriTemplate: "demo://resource/dynamic/text/{resourceId}",
    variables: { resourceId: " " },
  });
  expect(empty.status).toBe(400);
  expect((await errorOf(empty)).message).toBe(
    "Fill in 'resourceId' to read demo://resource/dynamic/text/{resourceId}.",
  );
  const missing = await post(user, `${base}/resources/read`, {
    server: "everything",
    uri: "demo://resource/static/document/nothing-here.md",
  });
  expect(missing.status).toBeGreaterThanOrEqual(400);
  expect((await errorOf(missing)).message).toMatch(/^The MCP server 'everything' .*nothing-here/);
});

it("attaching a short text resource puts its text in the message", async () => {
  const { user, base } = await setUp();
  const attached = await ok(
    await post(user, `${base}/resources/attach`, {
      server: "everything",
      uri: "demo://resource/static/document/features.md",
    }),
    McpAttachment,
  );
  expect(attached.artifacts).toEqual([]);
  expect(attached.text).toMatch(
    /^Attached resource demo:\/\/resource\/static\/document\/features.md from everything \(text\/markdown\):\n\n```+\n# Everything Server - Features/,
  );
  expect(attached.inlineChars).toBeGreaterThan(5000);
});

it("a text resource beyond the inline budget becomes an artifact the message names", async () => {
  const { user, base, conversationId } = await setUp();
  const attached = await ok(
    await post(user, `${base}/resources/attach`, {
      server: "everything",
      uri: "demo://resource/static/document/features.md",
      maxInlineChars: 1000,
    }),
    McpAttachment,
  );
  expect(attached.inlineChars).toBe(0);
  const [artifact] = attached.artifacts;
  expect(artifact).toMatchObject({
    conversationId,
    type: "text/markdown",
    title: "features.md",
    contentType: "text/markdown",
  });
  const stored = Artifact.parse(await (await api(user, `/api/artifacts/${artifact!.id}`)).json());
  expect(stored.content).toMatch(/^# Everything Server - Features/);
  expect(attached.text).toBe(
    `Attached resource demo://resource/static/document/features.md from everything (text/markdown, ${artifact!.size} bytes) as the artifact "features.md" (id ${artifact!.id}): its ${stored.content!.length} characters are more than fit in a message, so its content is not in this message.`,
  );
  const listed = (await (
    await api(user, `/api/conversations/${conversationId}/artifacts`)
  ).json()) as {
    items: Artifact[];
  };
  expect(listed.items.map((a) => a.id)).toEqual([artifact!.id]);
});

it("a binary resource becomes an artifact whose bytes download from R2", async () => {
  const { user, base } = await setUp();
  const attached = await ok(
    await post(user, `${base}/resources/attach`, {
      server: "everything",
      uriTemplate: "demo://resource/dynamic/blob/{resourceId}",
      variables: { resourceId: "5" },
    }),
    McpAttachment,
  );
  const artifact = attached.artifacts[0]!;
  expect(attached.text).toMatch(
    /^Attached resource demo:\/\/resource\/dynamic\/blob\/5 from everything \(text\/plain, \d+ bytes\) as the artifact "5" \(id [-0-9a-f]+\): it is binary/,
  );
  const download = await api(user, `/api/artifacts/${artifact.id}/download`);
  expect(await download.text()).toMatch(/^Resource 5: This is a base64 blob/);
  expect(
    await env.ARTIFACTS.head(`conversations/${artifact.conversationId}/artifacts/${artifact.id}`),
  ).not.toBeNull();
});

it("another user's conversation is 404, and an unreachable server is a 502 that says so", async () => {
  const { base } = await setUp();
  const stranger = await createUser();
  expect((await api(stranger, `${base}/prompts`)).status).toBe(404);

  const user = await createUser();
  await api(user, "/api/mcp-servers", {
    method: "POST",
    json: { name: "gone", url: "http://127.0.0.1:9/mcp" },
  });
  const conv = await createConversation(user, { settings: { blockedServers: ["mcp-remote"] } });
  const list = await ok(
    await api(user, `/api/conversations/${conv.id}/mcp/resources`),
    McpResourceList,
  );
  expect(list.problems).toEqual([
    {
      server: "gone",
      code: "unreachable",
      message: expect.stringMatching(
        /^The MCP server 'gone' could not be used: Could not connect to 127.0.0.1:9/,
      ),
    },
  ]);
  const res = await post(user, `/api/conversations/${conv.id}/mcp/resources/attach`, {
    server: "gone",
    uri: "x://y",
  });
  expect(res.status).toBe(502);
  expect(await errorOf(res)).toMatchObject({ code: "upstream_failed" });
});
