import { describe, expect, it } from "vitest";
import {
  enabledToolsOf,
  headerRowProblem,
  headersFromRows,
  isServerUsed,
  parseStepLimit,
  serverNameProblem,
  setEnabledTools,
  setServerUsed,
  urlProblem,
} from "./settings-state";

describe("using a server in a conversation", () => {
  it("unchecking adds the server to blockedServers, checking takes it out (and drops an empty list)", () => {
    const off = setServerUsed({ maxSteps: 7 }, "pubmed", false);
    expect(off).toEqual({ maxSteps: 7, blockedServers: ["pubmed"] });
    expect(isServerUsed(off, "pubmed")).toBe(false);
    expect(isServerUsed(off, "mcp-remote")).toBe(true);
    expect(setServerUsed(off, "pubmed", true)).toEqual({ maxSteps: 7 });
  });

  it("never lists a server twice, and leaves the others alone", () => {
    const s = setServerUsed({ blockedServers: ["a", "b"] }, "a", false);
    expect(s.blockedServers).toEqual(["b", "a"]);
    expect(setServerUsed(s, "b", true).blockedServers).toEqual(["a"]);
  });
});

describe("choosing tools", () => {
  const all = ["echo", "get-sum", "get-env"];

  it("all tools are checked until the conversation or the server chooses", () => {
    expect(enabledToolsOf({}, "ev", all)).toEqual(all);
    expect(enabledToolsOf({}, "ev", all, ["echo"])).toEqual(["echo"]);
    expect(enabledToolsOf({ enabledTools: { ev: ["get-env", "echo"] } }, "ev", all)).toEqual([
      "echo",
      "get-env",
    ]);
  });

  it("some checked: an entry in enabledTools, in the server's order", () => {
    expect(setEnabledTools({ maxSteps: 3 }, "ev", ["get-env", "echo"], all)).toEqual({
      maxSteps: 3,
      enabledTools: { ev: ["echo", "get-env"] },
    });
  });

  it("all checked: the entry is removed, and so is an empty enabledTools", () => {
    const some = { enabledTools: { ev: ["echo"], other: ["x"] } };
    expect(setEnabledTools(some, "ev", all, all)).toEqual({ enabledTools: { other: ["x"] } });
    expect(setEnabledTools({ enabledTools: { ev: ["echo"] } }, "ev", all, all)).toEqual({});
  });

  it("exactly the server's own choice is the default too; all of them is then a choice", () => {
    expect(setEnabledTools({ enabledTools: { ev: all } }, "ev", ["echo"], all, ["echo"])).toEqual(
      {},
    );
    expect(setEnabledTools({}, "ev", all, all, ["echo"])).toEqual({ enabledTools: { ev: all } });
  });

  it("none checked is kept as an empty choice (the server offers nothing)", () => {
    expect(setEnabledTools({}, "ev", [], all)).toEqual({ enabledTools: { ev: [] } });
  });
});

describe("the add-server form", () => {
  it("a header row needs a valid name and a value; an empty row is left out", () => {
    expect(headerRowProblem({ name: "", value: "" })).toBeNull();
    expect(headerRowProblem({ name: "Authorization", value: "Bearer x" })).toBeNull();
    expect(headerRowProblem({ name: "", value: "x" })).toMatch(/name/);
    expect(headerRowProblem({ name: "X Api Key", value: "x" })).toMatch(/not a header name/);
    expect(headerRowProblem({ name: "X-Api-Key", value: "" })).toMatch(/value/);
  });

  it("rows become headers; a name given twice (in any case) is refused", () => {
    expect(
      headersFromRows([
        { name: " Authorization ", value: "Bearer t" },
        { name: "", value: "" },
      ]),
    ).toEqual({ ok: true, headers: { Authorization: "Bearer t" } });
    expect(
      headersFromRows([
        { name: "X-Key", value: "a" },
        { name: "x-key", value: "b" },
      ]),
    ).toEqual({ ok: false, error: "The header 'x-key' is given twice." });
  });

  it("names and URLs follow the API's rules", () => {
    expect(serverNameProblem("pubmed", [])).toBeNull();
    expect(serverNameProblem("pub med", [])).toMatch(/letters, digits/);
    expect(serverNameProblem("mcp-remote", [])).toMatch(/built-in/);
    expect(serverNameProblem("pubmed", ["pubmed"])).toMatch(/already/);
    expect(urlProblem("https://example.com/mcp")).toBeNull();
    expect(urlProblem("example.com/mcp")).toMatch(/full URL/);
    expect(urlProblem("ftp://example.com")).toMatch(/https/);
  });

  it("the step limit is a whole number from 1 to 20", () => {
    expect(parseStepLimit("12")).toEqual({ ok: true, value: 12 });
    for (const bad of ["0", "21", "2.5", "", "ten"]) expect(parseStepLimit(bad).ok).toBe(false);
  });
});
