import { describe, expect, it } from "vitest";
import { startLinkToken, tokenFromInput } from "./start-link";

describe("start links", () => {
  it("reads the token from a start link's fragment", () => {
    expect(startLinkToken("#token=tc_abc123")).toBe("tc_abc123");
    expect(startLinkToken("#other=1")).toBeNull();
    expect(startLinkToken("")).toBeNull();
  });

  it("signs in with a token typed as it is, or out of a whole start link pasted in the box", () => {
    expect(tokenFromInput("  tc_abc1234567  ")).toBe("tc_abc1234567");
    expect(tokenFromInput("http://127.0.0.1:8787/#token=tc_abc1234567\n")).toBe("tc_abc1234567");
    expect(tokenFromInput("#token=tc_abc1234567")).toBe("tc_abc1234567");
  });
});
