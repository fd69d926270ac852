import { describe, expect, it } from "vitest";
import { CallToolResultSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
import { describeCallError } from "./call-errors";
import { lostAnswer } from "./response-streams";

const parseError = (result: unknown) => {
  const parsed = CallToolResultSchema.safeParse(result);
  if (parsed.success) throw new Error("expected a malformed result");
  return parsed.error;
};

describe("describeCallError", () => {
  it("a malformed result is a sentence naming the field and what it should be", () => {
    expect(describeCallError(parseError({ content: "oops" }))).toEqual({
      failure: "malformed_result",
      message: "the server sent a malformed result: `content` must be an array (it was a string).",
    });
    const nested = describeCallError(parseError({ content: [{ type: "text" }] }));
    expect(nested.failure).toBe("malformed_result");
    expect(nested.message).toMatch(/^the server sent a malformed result: `content\[0\]/);
    expect(nested.message).not.toMatch(/[{}]/);
  });

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
