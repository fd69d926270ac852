import { describe, expect, it } from "vitest";
import { buildToolNameMap } from "./tool-names";

describe("provider-safe tool names", () => {
  it("maps 200 generated server:tool names, long and colliding ones included, to valid unique names and back", () => {
    const entries: { server: string; tool: string }[] = [];
    for (let i = 0; i < 120; i++) entries.push({ server: `server-${i % 7}`, tool: `tool_${i}` });
    for (let i = 0; i < 40; i++)
      entries.push({
        server: "a-very-long-server-name-that-goes-on-and-on-forever",
        tool: `an_equally_long_tool_name_that_differs_only_at_the_very_end_${i}`,
      });
    for (let i = 0; i < 20; i++)
      entries.push({ server: `weird server ${i}`, tool: "search.pubmed/v2" }); // cleans to the same text
    for (let i = 0; i < 15; i++) entries.push({ server: "x", tool: `ünïcode ${"名".repeat(i)}` });
    // Gemini refuses names that start with a digit or a dash.
    for (let i = 0; i < 5; i++) entries.push({ server: `${i}-tools`, tool: "-run" });
    expect(entries).toHaveLength(200);
    const map = buildToolNameMap(entries);
    const names = entries.map((e) => map.toSafe(e.server, e.tool));
    for (const n of names) expect(n).toMatch(/^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$/);
    expect(new Set(names).size).toBe(200);
    entries.forEach((e, i) => expect(map.fromSafe(names[i]!)).toEqual(e));
  });

  it("gives the same names for the same catalog in any order, and refuses unknown names", () => {
    const a = buildToolNameMap([
      { server: "s1", tool: "t" },
      { server: "s2", tool: "t" },
    ]);
    const b = buildToolNameMap([
      { server: "s2", tool: "t" },
      { server: "s1", tool: "t" },
    ]);
    expect(a.toSafe("s1", "t")).toBe(b.toSafe("s1", "t"));
    expect(a.toSafe("s1", "t")).not.toBe(a.toSafe("s2", "t"));
    expect(a.fromSafe("nope")).toBeUndefined();
    expect(() => a.toSafe("s3", "t")).toThrow(/not in the catalog/);
  });
});
