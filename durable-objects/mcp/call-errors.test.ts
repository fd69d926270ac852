import { describe, expect, it } from "vitest";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { describeCallError } from "./call-errors";
import { lostAnswer } from "./response-streams";

describe("describeCallError", () => {
  it("a lost connection says so, and that the call was not repeated", () => {
    const { error } = lostAnswer(1, "reset");
    const described = describeCallError(new McpError(error.code, error.message, error.data));
    expect(described.failure).toBe("connection_lost");
    expect(described.message).toMatch(/connection to the server was lost.*not repeated/);
  });

  it("any other error keeps its message", () => {
    expect(describeCallError(new Error("boom"))).toEqual({ failure: "other", message: "boom" });
  });
});
