// The operator's numeric settings: one that cannot be read keeps the default and is logged as a
// `config` line naming it (README, Configuration), never dropped without a word.
import { afterEach, expect, it, vi } from "vitest";
import { approvalTtlSeconds, DEFAULT_APPROVAL_TTL_SECONDS } from "./approvals";
import { dailyAllowance } from "./daily-allowance";

afterEach(() => vi.restoreAllMocks());

const configLines = (spy: { mock: { calls: unknown[][] } }) =>
  spy.mock.calls.map(([line]) => JSON.parse(String(line)) as { event: string; message: string });

it("a daily allowance of '10k' is no allowance, and the log says why", () => {
  const errors = vi.spyOn(console, "error").mockImplementation(() => {});
  expect(dailyAllowance({ DAILY_TOKEN_ALLOWANCE: "10k", DAILY_COST_ALLOWANCE_USD: "5" })).toEqual({
    costUsd: 5,
  });
  expect(configLines(errors)).toEqual([
    expect.objectContaining({
      event: "config",
      message: expect.stringMatching(/^DAILY_TOKEN_ALLOWANCE must be a positive number/),
    }),
  ]);
});

it("an approval wait of '1d' keeps 24 h, and the log names APPROVAL_TTL_SECONDS", () => {
  const errors = vi.spyOn(console, "error").mockImplementation(() => {});
  expect(approvalTtlSeconds("1d", undefined)).toBe(DEFAULT_APPROVAL_TTL_SECONDS);
  expect(approvalTtlSeconds("3600", undefined)).toBe(3600);
  expect(configLines(errors).map((l) => l.message)).toEqual([
    "APPROVAL_TTL_SECONDS must be a positive number; it is ignored and the default is used.",
  ]);
});
