import { afterEach, expect, it, vi } from "vitest";
import { writesLevel } from "./log-level";

afterEach(() => vi.restoreAllMocks());

it("writes every line by default and at info, only warnings and errors at warn", () => {
  expect(writesLevel({}, "info")).toBe(true);
  expect(writesLevel({ LOG_LEVEL: "info" }, "info")).toBe(true);
  expect(writesLevel({ LOG_LEVEL: "warn" }, "info")).toBe(false);
  expect(writesLevel({ LOG_LEVEL: "WARN" }, "warn")).toBe(true);
  expect(writesLevel({ LOG_LEVEL: "warn" }, "error")).toBe(true);
  expect(writesLevel({ LOG_LEVEL: "error" }, "warn")).toBe(false);
});

it("reads an unknown level as info and says once what it takes", () => {
  const errors: string[] = [];
  vi.spyOn(console, "error").mockImplementation((line: unknown) => void errors.push(String(line)));
  expect(writesLevel({ LOG_LEVEL: "verbose" }, "info")).toBe(true);
  expect(writesLevel({ LOG_LEVEL: "verbose" }, "info")).toBe(true);
  expect(errors).toHaveLength(1);
  expect(errors[0]).toContain(
    'LOG_LEVEL must be one of info, warn, error; \\"verbose\\" is ignored',
  );
});
