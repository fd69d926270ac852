import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import {
  forgetSharedCatalog,
  SHARED_CATALOG_TTL_MS,
  shareCatalog,
  sharedCatalog,
} from "./shared-catalog";

const tools: Tool[] = [{ name: "search", inputSchema: { type: "object" } }];
const source = (over: Partial<Parameters<typeof sharedCatalog>[0]> = {}) => ({
  userId: "u1",
  name: "docs",
  url: "https://docs.example/mcp",
  headers: { authorization: "Bearer a" },
  ...over,
});

describe("shared tool catalogs", () => {
  it("serve a user's other conversations until they are five minutes old", () => {
    shareCatalog(source(), tools, 1_000);
    expect(sharedCatalog(source(), 1_000 + SHARED_CATALOG_TTL_MS - 1)).toEqual(tools);
    expect(sharedCatalog(source(), 1_000 + SHARED_CATALOG_TTL_MS)).toBeNull();
  });

  it("are never shared across users, servers or credentials", () => {
    shareCatalog(source(), tools, 0);
    expect(sharedCatalog(source({ userId: "u2" }), 1)).toBeNull();
    expect(sharedCatalog(source({ url: "https://other.example/mcp" }), 1)).toBeNull();
    expect(sharedCatalog(source({ headers: { authorization: "Bearer b" } }), 1)).toBeNull();
    expect(sharedCatalog(source(), 1)).toEqual(tools);
  });

  it("are dropped when a server says its tools changed", () => {
    shareCatalog(source(), tools, 0);
    forgetSharedCatalog(source());
    expect(sharedCatalog(source(), 1)).toBeNull();
  });
});
