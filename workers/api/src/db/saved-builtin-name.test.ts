// Migration 0014: a server saved as 'mcp-remote' before that name was refused (the built-in
// server's tools go by it, so the saved one was listed but never used) gets a name of its own.
import { env } from "cloudflare:test";
import { expect, it } from "vitest";
import { api, createUser } from "../../../../tests/support/helpers";

it("renames each user's server saved as 'mcp-remote', so it is offered again", async () => {
  const users = [await createUser(), await createUser()];
  for (const [i, user] of users.entries())
    await env.DB.prepare("INSERT INTO mcp_servers (id, user_id, name, url) VALUES (?, ?, ?, ?)")
      .bind(`abcd${i}234-0000-0000`, user.id, "mcp-remote", `https://tools${i}.example/mcp`)
      .run();
  const migration = (env.TEST_MIGRATIONS ?? []).find((m) =>
    m.name.startsWith("0014_saved_builtin_name"),
  );
  expect(migration).toBeDefined();
  for (const query of migration!.queries) await env.DB.prepare(query).run();

  for (const [i, user] of users.entries()) {
    const res = await api(user, "/api/mcp-servers");
    const { items } = (await res.json()) as { items: Array<{ name: string; url: string }> };
    expect(items).toEqual([
      expect.objectContaining({
        name: `mcp-remote-abcd${i}234`,
        url: `https://tools${i}.example/mcp`,
      }),
    ]);
  }
});
