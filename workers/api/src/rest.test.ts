import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import {
  api,
  createConversation,
  createUser,
  errorOf,
  insertArtifact,
  type TestUser,
} from "../../../tests/support/helpers";

let alice: TestUser;
let bob: TestUser;
beforeAll(async () => {
  alice = await createUser("alice");
  bob = await createUser("bob");
});

describe("bad input gets a JSON error that says what is wrong", () => {
  const cases: Array<{
    name: string;
    path: string;
    init: RequestInit & { json?: unknown };
    status: number;
    code: string;
    auth?: boolean;
  }> = [
    {
      name: "no credentials",
      path: "/api/conversations",
      init: {},
      status: 401,
      code: "unauthorized",
      auth: false,
    },
    {
      name: "bad JSON",
      path: "/api/conversations",
      init: { method: "POST", body: "{nope", headers: { "content-type": "application/json" } },
      status: 400,
      code: "invalid_json",
    },
    {
      name: "not JSON at all",
      path: "/api/conversations",
      init: {
        method: "POST",
        body: "title=x",
        headers: { "content-type": "application/x-www-form-urlencoded" },
      },
      status: 415,
      code: "unsupported_media_type",
    },
    {
      name: "wrong type",
      path: "/api/conversations",
      init: { method: "POST", json: { title: 42 } },
      status: 400,
      code: "validation_failed",
    },
    {
      name: "unknown provider",
      path: "/api/conversations",
      init: { method: "POST", json: { provider: "skynet" } },
      status: 400,
      code: "validation_failed",
    },
    {
      name: "unknown field",
      path: "/api/conversations",
      init: { method: "POST", json: { colour: "red" } },
      status: 400,
      code: "validation_failed",
    },
    {
      name: "step limit out of range",
      path: "/api/conversations",
      init: { method: "POST", json: { settings: { maxSteps: 500 } } },
      status: 400,
      code: "validation_failed",
    },
    {
      name: "oversized body",
      path: "/api/conversations",
      init: { method: "POST", json: { title: "x".repeat(300 * 1024) } },
      status: 413,
      code: "payload_too_large",
    },
    {
      name: "unknown conversation",
      path: "/api/conversations/nope",
      init: {},
      status: 404,
      code: "not_found",
    },
    {
      name: "unknown artifact",
      path: "/api/artifacts/nope",
      init: {},
      status: 404,
      code: "not_found",
    },
    {
      name: "bad limit",
      path: "/api/conversations?limit=0",
      init: {},
      status: 400,
      code: "validation_failed",
    },
    { name: "unknown route", path: "/api/nothing-here", init: {}, status: 404, code: "not_found" },
    {
      name: "a method the path does not take",
      path: "/api/conversations/whatever",
      init: { method: "PUT", json: { title: "x" } },
      status: 405,
      code: "method_not_allowed",
    },
    {
      name: "empty patch",
      path: "/api/conversations/whatever",
      init: { method: "PATCH", json: {} },
      status: 400,
      code: "validation_failed",
    },
    {
      name: "MCP server on a private address",
      path: "/api/mcp-servers",
      init: { method: "POST", json: { name: "evil", url: "https://169.254.169.254/latest" } },
      status: 400,
      code: "validation_failed",
    },
    {
      name: "MCP server bad name",
      path: "/api/mcp-servers",
      init: { method: "POST", json: { name: "no spaces", url: "https://mcp.example.com/mcp" } },
      status: 400,
      code: "validation_failed",
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const res = await api(c.auth === false ? null : alice, c.path, c.init);
      expect(res.status).toBe(c.status);
      expect(res.headers.get("content-type")).toContain("application/json");
      const error = await errorOf(res);
      expect(error.code).toBe(c.code);
      expect(error.message.length).toBeGreaterThan(10);
    });
  }

  it("names the field that is wrong", async () => {
    const res = await api(alice, "/api/conversations", { method: "POST", json: { mode: "chaos" } });
    const body = (await res.json()) as {
      error: { message: string; details: Array<{ path: string }> };
    };
    expect(body.error.message).toContain("mode");
    expect(body.error.details[0]?.path).toBe("mode");
  });

  it("refuses the built-in server's name for a server of one's own, on add and on rename", async () => {
    const added = await api(alice, "/api/mcp-servers", {
      method: "POST",
      json: { name: "mcp-remote", url: "https://mcp.example.com/mcp" },
    });
    expect(added.status).toBe(400);
    expect((await errorOf(added)).message).toContain("'mcp-remote' is the built-in server's name");
    const mine = await api(alice, "/api/mcp-servers", {
      method: "POST",
      json: { name: "to-rename", url: "https://mcp.example.com/mcp" },
    });
    const { id } = (await mine.json()) as { id: string };
    const renamed = await api(alice, `/api/mcp-servers/${id}`, {
      method: "PATCH",
      json: { name: "mcp-remote" },
    });
    expect(renamed.status).toBe(400);
  });

  it("refuses a token that does not exist", async () => {
    const res = await api({ id: "x", token: "tc_not_a_real_token" }, "/api/conversations");
    expect(res.status).toBe(401);
  });

  it("answers a wrong method with 405 and the methods the path takes, a wrong path with 404", async () => {
    const conv = await createConversation(alice);
    const put = await api(alice, `/api/conversations/${conv.id}`, { method: "PUT", json: {} });
    expect(put.status).toBe(405);
    expect(put.headers.get("allow")).toBe("DELETE, GET, HEAD, PATCH");
    expect((await errorOf(put)).message).toContain("takes DELETE, GET, HEAD, PATCH");
    const chat = await api(alice, `/api/conversations/${conv.id}/chat`);
    expect(chat.headers.get("allow")).toBe("POST");
    expect((await api(alice, `/api/conversations/${conv.id}/nope`)).status).toBe(404);
  });

  it("says which scheme to use when the Authorization header is not a bearer token", async () => {
    const res = await api(null, "/api/conversations", {
      headers: { authorization: `Basic ${btoa("alice:secret")}` },
    });
    expect(res.status).toBe(401);
    expect((await errorOf(res)).message).toContain("must read `Bearer <token>`");
  });
});

describe("conversations", () => {
  it("creates with defaults, renames, changes settings, and lists newest first with pagination", async () => {
    const a = await createConversation(alice, { title: "First" });
    expect(a).toMatchObject({ title: "First", provider: "anthropic", model: "claude-haiku-4-5" });
    const b = await createConversation(alice, {
      title: "Second",
      provider: "gemini",
      mode: "graph",
    });
    expect(b).toMatchObject({ provider: "gemini", model: "gemini-3.5-flash" });
    const renamed = await api(alice, `/api/conversations/${a.id}`, {
      method: "PATCH",
      json: { title: "Renamed", settings: { maxSteps: 3 } },
    });
    expect(renamed.status).toBe(200);
    expect(await renamed.json()).toMatchObject({ title: "Renamed", settings: { maxSteps: 3 } });

    const page1 = (await (await api(alice, "/api/conversations?limit=1")).json()) as {
      items: { id: string }[];
      nextCursor: string;
    };
    expect(page1.items.map((c) => c.id)).toEqual([a.id]);
    const page2 = (await (
      await api(alice, `/api/conversations?limit=1&cursor=${encodeURIComponent(page1.nextCursor)}`)
    ).json()) as { items: { id: string }[] };
    expect(page2.items.map((c) => c.id)).toEqual([b.id]);
    const search = (await (await api(alice, "/api/conversations?q=Second")).json()) as {
      items: { id: string }[];
    };
    expect(search.items.map((c) => c.id)).toEqual([b.id]);
  });
});

describe("titles another member or client writes", () => {
  it("lose the bidi controls that would reverse them and the text after them in the list", async () => {
    // U+202E reverses the rest of the title and whatever follows it on the line.
    const made = await createConversation(alice, { title: "Budget \u202E2026 fdp.exe" });
    expect(made.title).toBe("Budget 2026 fdp.exe");
    const renamed = await api(alice, `/api/conversations/${made.id}`, {
      method: "PATCH",
      json: { title: "\u2067مرحبا\u2069 notes\u202D" },
    });
    expect(await renamed.json()).toMatchObject({ title: "مرحبا notes" });
    const onlyControls = await api(alice, `/api/conversations/${made.id}`, {
      method: "PATCH",
      json: { title: "\u202E\u202E" },
    });
    expect(onlyControls.status).toBe(400);
    expect((await errorOf(onlyControls)).message).toContain("title");
  });
});

describe("titles stored before bidi controls were dropped on the way in", () => {
  it("are shown without them wherever they are read: the list, the conversation, its artifacts and messages, the export", async () => {
    const conv = await createConversation(alice, { title: "Old" });
    // Written as an older version of the app did: straight into D1, controls and all.
    await env.DB.prepare("UPDATE conversations SET title = ? WHERE id = ?")
      .bind("Budget \u202E2026 fdp.exe", conv.id)
      .run();
    const artifactId = await insertArtifact(conv.id, { title: "invoice\u202Efdp.exe" });
    const parts = [
      { type: "text", text: "Here it is." },
      {
        type: "artifact",
        artifactId,
        artifactType: "text/markdown",
        title: "invoice\u202Efdp.exe",
      },
    ];
    await env.DB.prepare(
      "INSERT INTO messages (id, conversation_id, role, content, seq) VALUES (?, ?, 'assistant', ?, 1)",
    )
      .bind(crypto.randomUUID(), conv.id, JSON.stringify(parts))
      .run();
    const listed = (await (await api(alice, "/api/conversations?limit=100")).json()) as {
      items: Array<{ id: string; title: string }>;
    };
    expect(listed.items.find((c) => c.id === conv.id)?.title).toBe("Budget 2026 fdp.exe");
    const one = await api(alice, `/api/conversations/${conv.id}`);
    expect(await one.json()).toMatchObject({ title: "Budget 2026 fdp.exe" });
    const artifact = await api(alice, `/api/artifacts/${artifactId}`);
    expect(await artifact.json()).toMatchObject({ title: "invoicefdp.exe" });
    const page = await api(alice, `/api/conversations/${conv.id}/messages`);
    expect(JSON.stringify(await page.json())).toContain('"title":"invoicefdp.exe"');
    const exported = await (await api(alice, `/api/conversations/${conv.id}/export`)).text();
    expect(exported).toContain("Budget 2026 fdp.exe");
    expect(exported).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
  });
});

describe("the conversation list's cursor", () => {
  it("refuses a cursor it did not give out instead of starting over (a client would loop)", async () => {
    await createConversation(alice, { title: "One" });
    await createConversation(alice, { title: "Two" });
    for (const cursor of ["garbage", "", btoa("yesterday:abc"), "bm9wZQ=="]) {
      const res = await api(
        alice,
        `/api/conversations?limit=1&cursor=${encodeURIComponent(cursor)}`,
      );
      expect(res.status, cursor).toBe(400);
      const error = await errorOf(res);
      expect(error.code).toBe("validation_failed");
      expect(error.message).toMatch(/cursor: not a cursor this API gave out.*without cursor/);
    }
  });
});

describe("another user gets 404 for every resource", () => {
  it("conversations, messages, artifacts, realtime endpoints and MCP servers", async () => {
    const conv = await createConversation(alice, { title: "Private" });
    const artifactId = await insertArtifact(conv.id);
    const server = (await (
      await api(alice, "/api/mcp-servers", {
        method: "POST",
        json: {
          name: "mine",
          url: "https://mcp.example.com/mcp",
          headers: { Authorization: "Bearer secret-value" },
        },
      })
    ).json()) as { id: string; headers: Record<string, string> };
    expect(server.headers.Authorization).not.toContain("secret");

    const attempts: Array<[string, RequestInit & { json?: unknown }]> = [
      [`/api/conversations/${conv.id}`, {}],
      [`/api/conversations/${conv.id}`, { method: "PATCH", json: { title: "mine now" } }],
      [`/api/conversations/${conv.id}`, { method: "DELETE" }],
      [`/api/conversations/${conv.id}/messages`, {}],
      [`/api/conversations/${conv.id}/artifacts`, {}],
      [`/api/conversations/${conv.id}/ws-ticket`, { method: "POST" }],
      [
        `/api/conversations/${conv.id}/chat`,
        { method: "POST", json: { clientMessageId: "x1", text: "hi" } },
      ],
      [`/api/conversations/${conv.id}/events`, {}],
      [`/api/artifacts/${artifactId}`, {}],
      [`/api/artifacts/${artifactId}`, { method: "PATCH", json: { content: "stolen" } }],
      [`/api/artifacts/${artifactId}/pin`, { method: "PUT" }],
      [`/api/artifacts/${artifactId}/download`, {}],
      [`/api/artifacts/${artifactId}`, { method: "DELETE" }],
      [`/api/mcp-servers/${server.id}`, { method: "PATCH", json: { enabled: false } }],
      [`/api/mcp-servers/${server.id}`, { method: "DELETE" }],
    ];
    for (const [path, init] of attempts) {
      const res = await api(bob, path, init);
      expect(res.status, `${init.method ?? "GET"} ${path}`).toBe(404);
    }
    // Nothing changed for the owner.
    const still = (await (await api(alice, `/api/artifacts/${artifactId}`)).json()) as {
      content: string;
      pinned: boolean;
    };
    expect(still).toMatchObject({ content: "# hi", pinned: false });
    const list = (await (await api(bob, "/api/conversations")).json()) as { items: unknown[] };
    expect(list.items).toEqual([]);
  });
});

describe("artifacts", () => {
  it("edits text, pins and unpins, and downloads with safe headers", async () => {
    const conv = await createConversation(alice);
    const id = await insertArtifact(conv.id, {
      type: "application/vnd.ant.code",
      title: "hello world",
      content: "print(1)",
      language: "python",
    });
    const edited = await api(alice, `/api/artifacts/${id}`, {
      method: "PATCH",
      json: { content: "print(2)" },
    });
    expect(await edited.json()).toMatchObject({ content: "print(2)" });
    expect(
      await (await api(alice, `/api/artifacts/${id}/pin`, { method: "PUT" })).json(),
    ).toMatchObject({ pinned: true });
    expect(
      await (await api(alice, `/api/artifacts/${id}/pin`, { method: "DELETE" })).json(),
    ).toMatchObject({ pinned: false });
    const dl = await api(alice, `/api/artifacts/${id}/download`);
    expect(dl.headers.get("content-disposition")).toContain('filename="hello_world.py"');
    expect(dl.headers.get("x-content-type-options")).toBe("nosniff");
    expect(dl.headers.get("content-security-policy")).toContain("sandbox");
    expect(await dl.text()).toBe("print(2)");
  });

  it("refuses an edit based on a version someone else has since saved over, saying so", async () => {
    const conv = await createConversation(alice);
    const id = await insertArtifact(conv.id, {
      type: "text/markdown",
      title: "Plan",
      content: "v1",
    });
    type Read = { content: string; updatedAt: number };
    const opened = (await (await api(alice, `/api/artifacts/${id}`)).json()) as Read;
    // Pinning it elsewhere changes nothing an editor would lose: the save still goes through.
    await api(alice, `/api/artifacts/${id}/pin`, { method: "PUT" });
    // Two tabs opened the same version; the first saves.
    const first = await api(alice, `/api/artifacts/${id}`, {
      method: "PATCH",
      json: { content: "from tab one", baseUpdatedAt: opened.updatedAt },
    });
    expect(first.status).toBe(200);
    const second = await api(alice, `/api/artifacts/${id}`, {
      method: "PATCH",
      json: { content: "from tab two", baseUpdatedAt: opened.updatedAt },
    });
    expect(second.status).toBe(409);
    expect((await errorOf(second)).message).toMatch(/changed since you opened it.*reload/i);
    const now = (await (await api(alice, `/api/artifacts/${id}`)).json()) as Read;
    expect(now.content).toBe("from tab one");
    // From the reloaded version, the edit goes through.
    const retried = await api(alice, `/api/artifacts/${id}`, {
      method: "PATCH",
      json: { content: "from tab two", baseUpdatedAt: now.updatedAt },
    });
    expect(await retried.json()).toMatchObject({ content: "from tab two" });
  });

  it("keeps the content a save replaces, so the earlier version can be read and put back", async () => {
    const conv = await createConversation(alice);
    const id = await insertArtifact(conv.id, {
      type: "application/vnd.ant.code",
      title: "script",
      content: "print(1)",
      language: "python",
    });
    const save = (content: string) =>
      api(alice, `/api/artifacts/${id}`, { method: "PATCH", json: { content } });
    expect((await save("print(2)")).status).toBe(200);
    expect((await save("print(3)")).status).toBe(200);
    // A title change alone is no new version of the content.
    await api(alice, `/api/artifacts/${id}`, { method: "PATCH", json: { title: "run" } });
    type Versions = { items: Array<{ id: string; savedAt: number; content?: string }> };
    const list = (await (await api(alice, `/api/artifacts/${id}/versions`)).json()) as Versions;
    expect(list.items).toHaveLength(2);
    const [newer, older] = list.items;
    expect(newer!.savedAt).toBeGreaterThan(older!.savedAt);
    const first = await api(alice, `/api/artifacts/${id}/versions/${older!.id}`);
    expect(await first.json()).toMatchObject({ content: "print(1)", title: "script" });
    // Putting it back is a save like any other: the current content becomes a version too.
    expect((await save("print(1)")).status).toBe(200);
    const after = (await (await api(alice, `/api/artifacts/${id}/versions`)).json()) as Versions;
    expect(after.items).toHaveLength(3);
    // Another user's request for the versions is not told they exist.
    expect((await api(bob, `/api/artifacts/${id}/versions`)).status).toBe(404);
    expect((await api(bob, `/api/artifacts/${id}/versions/${older!.id}`)).status).toBe(404);
  });

  it("streams R2 binaries with their content type, refuses to edit them, and deletes the object", async () => {
    const conv = await createConversation(alice);
    const key = `conversations/${conv.id}/artifacts/chart.png`;
    const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
    await env.ARTIFACTS.put(key, bytes);
    const id = await insertArtifact(conv.id, {
      type: "image/png",
      title: "Chart",
      content: null,
      r2Key: key,
      contentType: "image/png",
    });
    const dl = await api(alice, `/api/artifacts/${id}/download`);
    expect(dl.headers.get("content-type")).toBe("image/png");
    expect(dl.headers.get("content-disposition")).toMatch(/^inline; filename="Chart.png"/);
    expect(new Uint8Array(await dl.arrayBuffer())).toEqual(bytes);
    const forced = await api(alice, `/api/artifacts/${id}/download?attachment=1`);
    expect(forced.headers.get("content-disposition")).toMatch(/^attachment/);
    await forced.arrayBuffer();
    const edit = await api(alice, `/api/artifacts/${id}`, {
      method: "PATCH",
      json: { content: "x" },
    });
    expect(edit.status).toBe(409);
    expect((await api(alice, `/api/artifacts/${id}`, { method: "DELETE" })).status).toBe(204);
    expect(await env.ARTIFACTS.get(key)).toBeNull();
  });

  it("serves SVG as an attachment, never inline", async () => {
    const conv = await createConversation(alice);
    const id = await insertArtifact(conv.id, {
      type: "image/svg+xml",
      title: "pic",
      content: "<svg onload=alert(1)></svg>",
      contentType: "image/svg+xml",
    });
    const dl = await api(alice, `/api/artifacts/${id}/download`);
    expect(dl.headers.get("content-disposition")).toMatch(/^attachment; filename="pic.svg"/);
    await dl.text();
  });
});

describe("sessions and tickets", () => {
  it("trades a token for an HttpOnly cookie that authenticates, and refuses cookie writes from other origins", async () => {
    const res = await api(null, "/api/session", { method: "POST", json: { token: alice.token } });
    expect(res.status).toBe(200);
    const cookie = res.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Strict/i);
    const session = cookie.split(";")[0]!;
    const me = await api(null, "/api/session", { headers: { cookie: session } });
    expect(await me.json()).toMatchObject({ user: { id: alice.id } });
    const foreign = await api(null, "/api/conversations", {
      method: "POST",
      json: {},
      headers: { cookie: session, origin: "https://evil.example" },
    });
    expect(foreign.status).toBe(403);
    const own = await api(null, "/api/conversations", {
      method: "POST",
      json: {},
      headers: { cookie: session, origin: "http://app.test" },
    });
    expect(own.status).toBe(201);
  });
});
