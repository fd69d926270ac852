import { describe, expect, it } from "vitest";
import { normalizeMath } from "./math-delimiters";

describe("normalizeMath", () => {
  it("reads \\( … \\) as inline math and \\[ … \\] as a display block", () => {
    expect(normalizeMath("Euler: \\( e^{i\\pi} + 1 = 0 \\).")).toBe("Euler: $e^{i\\pi} + 1 = 0$.");
    expect(normalizeMath("Sum:\n\\[\n\\sum_i x_i\n\\]\nDone.")).toBe(
      "Sum:\n\n$$\n\\sum_i x_i\n$$\n\nDone.",
    );
  });

  it("reads a line that is only $$ … $$ as a display block (centred, full size)", () => {
    expect(normalizeMath("Area:\n$$\\int_0^1 x^2\\,dx = \\frac{1}{3}$$\nDone.")).toBe(
      "Area:\n\n$$\n\\int_0^1 x^2\\,dx = \\frac{1}{3}\n$$\n\nDone.",
    );
    // Within a sentence it stays inline.
    expect(normalizeMath("So $$c$$ here.")).toBe("So $$c$$ here.");
  });

  it("keeps amounts of money as text", () => {
    expect(normalizeMath("It costs $5 and $10.")).toBe("It costs \\$5 and \\$10.");
    expect(normalizeMath("Math $a+b$ and $$c$$ stay.")).toBe("Math $a+b$ and $$c$$ stay.");
  });

  it("leaves code alone", () => {
    expect(normalizeMath("Run `echo $5 \\(x\\)` now")).toBe("Run `echo $5 \\(x\\)` now");
    expect(normalizeMath("```sh\necho $HOME $1\n```")).toBe("```sh\necho $HOME $1\n```");
  });
});
