// Templates over REST: the built-ins listed with the user's own, the user's own editable, the
// built-ins and other users' templates not.
import { describe, expect, it } from "vitest";
import type { Template } from "../../../../durable-objects/protocol/templates";
import { api, createConversation, createUser, errorOf } from "../../../../tests/support/helpers";

const listNames = async (user: Awaited<ReturnType<typeof createUser>>) => {
  const res = await api(user, "/api/templates");
  expect(res.status).toBe(200);
  return ((await res.json()) as { items: Template[] }).items.map((t) => t.name);
};

describe("/api/templates", () => {
  it("lists the three built-ins for a new user, then their own after they create one", async () => {
    const user = await createUser();
    expect(await listNames(user)).toEqual([
      "Literature review",
      "Knowledge-graph builder",
      "Code helper",
    ]);
    const res = await api(user, "/api/templates", {
      method: "POST",
      json: {
        name: "Reviewer",
        systemPrompt: "Review {{lang}} text.",
        messages: [{ role: "user", content: "Be terse." }],
        defaults: { mode: "tools", maxSteps: 3 },
      },
    });
    expect(res.status).toBe(201);
    const created = (await res.json()) as Template & { warnings?: string[] };
    expect(created).toMatchObject({ name: "Reviewer", builtin: false, description: "" });
    // Its only braces are a variable: nothing to warn about.
    expect(created.warnings).toBeUndefined();
    expect((await listNames(user)).at(-1)).toBe("Reviewer");

    const fetched = await api(user, `/api/templates/${created.id}`);
    expect(((await fetched.json()) as Template).defaults).toEqual({ mode: "tools", maxSteps: 3 });
  });

  it("changes only the fields sent, and deletes", async () => {
    const user = await createUser();
    const created = (await (
      await api(user, "/api/templates", {
        method: "POST",
        json: { name: "Draft", systemPrompt: "Keep me.", messages: [] },
      })
    ).json()) as Template;
    const patched = await api(user, `/api/templates/${created.id}`, {
      method: "PATCH",
      json: { name: "Final" },
    });
    expect(patched.status).toBe(200);
    expect(await patched.json()).toMatchObject({ name: "Final", systemPrompt: "Keep me." });
    // A change that leaves a typo in the prompt says so.
    const typo = await api(user, `/api/templates/${created.id}`, {
      method: "PATCH",
      json: { systemPrompt: "Answer with {{modle}}." },
    });
    expect(((await typo.json()) as { warnings?: string[] }).warnings?.[0]).toMatch(
      /^\{\{modle\}\} is not a variable, so the model gets it as written\./,
    );

    expect((await api(user, `/api/templates/${created.id}`, { method: "DELETE" })).status).toBe(
      204,
    );
    expect((await api(user, `/api/templates/${created.id}`)).status).toBe(404);
  });

  it("refuses to change or delete a built-in, saying how to get an editable copy", async () => {
    const user = await createUser();
    for (const method of ["PATCH", "DELETE"]) {
      const res = await api(user, "/api/templates/builtin:code-helper", {
        method,
        ...(method === "PATCH" && { json: { name: "Mine" } }),
      });
      expect(res.status).toBe(409);
      expect((await errorOf(res)).message).toMatch(/Create your own template/);
    }
    expect(await listNames(user)).toContain("Code helper");
  });

  it("keeps one user's templates from another", async () => {
    const owner = await createUser();
    const other = await createUser();
    const created = (await (
      await api(owner, "/api/templates", { method: "POST", json: { name: "Private" } })
    ).json()) as Template;
    expect(await listNames(other)).not.toContain("Private");
    expect((await api(other, `/api/templates/${created.id}`)).status).toBe(404);
    const patch = await api(other, `/api/templates/${created.id}`, {
      method: "PATCH",
      json: { name: "Stolen" },
    });
    expect(patch.status).toBe(404);
    const start = await api(other, "/api/conversations", {
      method: "POST",
      json: { templateId: created.id },
    });
    expect(start.status).toBe(404);
  });

  it("rejects a template without a name, naming the field", async () => {
    const user = await createUser();
    const res = await api(user, "/api/templates", { method: "POST", json: { name: " " } });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toMatch(/name/);
  });

  it("refuses a provider that does not exist, and a model without its provider", async () => {
    const user = await createUser();
    const unknown = await api(user, "/api/templates", {
      method: "POST",
      json: { name: "t1", defaults: { provider: "nope", model: "zzz" } },
    });
    expect(unknown.status).toBe(400);
    expect((await errorOf(unknown)).message).toMatch(/defaults\.provider/);
    const alone = await api(user, "/api/templates", {
      method: "POST",
      json: { name: "t2", defaults: { model: "zzz" } },
    });
    expect(alone.status).toBe(400);
    expect((await errorOf(alone)).message).toContain("name the provider of the model too");
    const made = await api(user, "/api/templates", {
      method: "POST",
      json: { name: "t3", defaults: { provider: "openai", model: "gpt-6-luna" } },
    });
    const { id } = (await made.json()) as Template;
    const started = await createConversation(user, { templateId: id });
    expect(started).toMatchObject({ provider: "openai", model: "gpt-6-luna" });
  });

  it("starts a conversation with the template's defaults under what the request sets", async () => {
    const user = await createUser();
    const fromBuiltin = await createConversation(user, { templateId: "builtin:knowledge-graph" });
    expect(fromBuiltin).toMatchObject({ title: "New conversation", mode: "graph" });
    const chosen = (await createConversation(user, {
      templateId: "builtin:literature-review",
      mode: "normal",
      settings: { maxSteps: 2 },
    })) as unknown as { mode: string; settings: { maxSteps: number; template: { name: string } } };
    expect(chosen.mode).toBe("normal");
    expect(chosen.settings.maxSteps).toBe(2);
    expect(chosen.settings.template.name).toBe("Literature review");

    // A template's reasoning effort is the new conversation's, unless the request sets another.
    const made = await api(user, "/api/templates", {
      method: "POST",
      json: { name: "Deep thought", defaults: { reasoningEffort: "high" } },
    });
    const { id } = (await made.json()) as Template;
    const thinking = (await createConversation(user, { templateId: id })) as unknown as {
      settings: { reasoningEffort?: string };
    };
    expect(thinking.settings.reasoningEffort).toBe("high");
    const overridden = (await createConversation(user, {
      templateId: id,
      settings: { reasoningEffort: "low" },
    })) as unknown as { settings: { reasoningEffort?: string } };
    expect(overridden.settings.reasoningEffort).toBe("low");
  });

  it("keeps the template when a settings change leaves it out", async () => {
    const user = await createUser();
    const conv = await createConversation(user, { templateId: "builtin:literature-review" });
    const res = await api(user, `/api/conversations/${conv.id}`, {
      method: "PATCH",
      json: { settings: { maxSteps: 3 } },
    });
    expect(res.status).toBe(200);
    const patched = (await res.json()) as { settings: { maxSteps: number; template?: unknown } };
    expect(patched.settings.maxSteps).toBe(3);
    const read = await api(user, `/api/conversations/${conv.id}`);
    const stored = (await read.json()) as { settings: { template?: { name: string } } };
    expect(stored.settings.template?.name).toBe("Literature review");
    expect(patched.settings.template).toEqual(stored.settings.template);
  });
});
