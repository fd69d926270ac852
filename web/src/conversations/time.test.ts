import { expect, it } from "vitest";
import { lastActivity } from "./time";

it("says how long ago a conversation was active, and the date once it is old", () => {
  const now = Date.UTC(2026, 10, 22, 12);
  expect(lastActivity(now - 5_000, now)).toMatch(/now|this minute/);
  expect(lastActivity(now - 5 * 60_000, now)).toMatch(/5 min/);
  expect(lastActivity(now - 3 * 3_600_000, now)).toMatch(/3 h/);
  expect(lastActivity(now - 2 * 86_400_000, now)).toMatch(/2 days|day before/);
  expect(lastActivity(now - 30 * 86_400_000, now)).toBe(
    new Date(now - 30 * 86_400_000).toLocaleDateString(),
  );
});
