// The stand-ins for zod's entries (zod.ts, zod-core.ts) must export everything zod does but its
// translations: compared with zod's own entry files, reached by path so no alias can swap them.
import { describe, expect, it } from "vitest";
import * as realZod from "../../../../node_modules/zod/index.js";
import * as realCore from "../../../../node_modules/zod/v4/core/index.js";
import * as zod from "./zod";
import * as core from "./zod-core";

const names = (module: object) => Object.keys(module).sort();

describe("zod without its translations", () => {
  it("exports every name zod's entry does, but `locales`", () => {
    expect(names(zod)).toEqual(names(realZod).filter((n) => n !== "locales"));
    expect(names(zod.z)).toEqual(names(realZod.z).filter((n) => n !== "locales"));
    expect(names(zod.core)).toEqual(names(realZod.core).filter((n) => n !== "locales"));
  });

  it("exports every name zod/v4/core does, but `locales`", () => {
    expect(names(core)).toEqual(names(realCore).filter((n) => n !== "locales"));
  });

  it("has a stand-in for fromJSONSchema that says why it is not there", () => {
    expect(() => zod.z.fromJSONSchema()).toThrow(/not bundled in the API worker/);
  });

  it("keeps zod's English messages", () => {
    const parsed = zod.z.object({ title: zod.z.string() }).safeParse({ title: 3 });
    expect(parsed.error?.issues[0]?.message).toBe(
      "Invalid input: expected string, received number",
    );
  });
});
