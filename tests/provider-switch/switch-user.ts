// A user of the provider-switch tests, with server-everything as their MCP server: every turn
// is offered its tools.
import { expect, inject } from "vitest";
import { api, createUser, type TestUser } from "../support/helpers";

export async function userWithEverything(): Promise<TestUser> {
  const user = await createUser();
  const res = await api(user, "/api/mcp-servers", {
    method: "POST",
    json: { name: "everything", url: inject("switchEverythingUrl") },
  });
  expect(res.status).toBe(201);
  return user;
}
