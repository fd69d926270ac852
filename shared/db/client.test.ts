// One drizzle client per D1 binding: making one works out the schema's relations again.
import { describe, expect, it } from "vitest";
import { createDb } from "./client";

describe("createDb", () => {
  it("reuses the client of a binding, and makes one per binding", () => {
    const first = {} as D1Database;
    const second = {} as D1Database;
    expect(createDb(first)).toBe(createDb(first));
    expect(createDb(second)).not.toBe(createDb(first));
  });
});
