// The operator's attachment limits: a malformed one falls back to the default and says so.
import { env } from "cloudflare:test";
import { afterEach, expect, it, vi } from "vitest";
import { attachmentLimits, DEFAULT_ATTACHMENT_QUOTA_BYTES } from "./limits";

afterEach(() => vi.restoreAllMocks());

it("takes whole byte counts", () => {
  const limits = attachmentLimits({ ...env, ATTACHMENT_MAX_BYTES: "52428800" });
  expect(limits.maxBytes).toBe(50 * 1024 * 1024);
});

it("logs a config line naming a limit it cannot read, once, and keeps the default", () => {
  const errors = vi.spyOn(console, "error").mockImplementation(() => {});
  const bindings = { ...env, ATTACHMENT_QUOTA_BYTES: "1GB" };
  expect(attachmentLimits(bindings).quotaBytes).toBe(DEFAULT_ATTACHMENT_QUOTA_BYTES);
  attachmentLimits(bindings);
  expect(errors).toHaveBeenCalledTimes(1);
  expect(JSON.parse(String(errors.mock.calls[0]![0]))).toEqual({
    level: "error",
    event: "config",
    message:
      "ATTACHMENT_QUOTA_BYTES must be a positive whole number; it is ignored and the default is used.",
  });
});
