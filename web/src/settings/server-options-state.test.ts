import { describe, expect, it } from "vitest";
import { parseTimeoutSeconds } from "./server-options-state";

describe("parseTimeoutSeconds", () => {
  it("turns whole seconds into the milliseconds the API stores", () => {
    expect(parseTimeoutSeconds(" 90 ")).toEqual({ ok: true, timeoutMs: 90_000 });
    expect(parseTimeoutSeconds("600")).toEqual({ ok: true, timeoutMs: 600_000 });
  });

  it("says what is wrong with a timeout the API would refuse", () => {
    expect(parseTimeoutSeconds("")).toMatchObject({ ok: false, error: /number of seconds/ });
    expect(parseTimeoutSeconds("soon")).toMatchObject({ ok: false, error: /number of seconds/ });
    expect(parseTimeoutSeconds("1.5")).toMatchObject({ ok: false, error: /whole seconds/ });
    expect(parseTimeoutSeconds("0")).toMatchObject({ ok: false, error: /from 1 to 600/ });
    expect(parseTimeoutSeconds("601")).toMatchObject({ ok: false, error: /from 1 to 600/ });
  });
});
