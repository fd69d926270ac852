import { expect, it } from "vitest";
import { formatBytes } from "./format-bytes";

it("says a size in the largest unit it reaches, with at most one decimal", () => {
  expect(formatBytes(1)).toBe("1 byte");
  expect(formatBytes(300)).toBe("300 bytes");
  expect(formatBytes(2048)).toBe("2 KiB");
  expect(formatBytes(1536)).toBe("1.5 KiB");
  expect(formatBytes(10 * 1024 * 1024)).toBe("10 MiB");
});
