// How large an attachment may be, and how much a user may keep in all: set by the operator
// (ATTACHMENT_MAX_BYTES, ATTACHMENT_QUOTA_BYTES), 10 MiB and 200 MiB unless set.
import type { Env } from "../../../../shared/env";
import { positiveSetting } from "../../../../shared/positive-setting";

const MiB = 1024 * 1024;
export const DEFAULT_ATTACHMENT_MAX_BYTES = 10 * MiB;
export const DEFAULT_ATTACHMENT_QUOTA_BYTES = 200 * MiB;

export interface AttachmentLimits {
  maxBytes: number;
  quotaBytes: number;
}

export function attachmentLimits(env: Env): AttachmentLimits {
  return {
    maxBytes:
      bytes("ATTACHMENT_MAX_BYTES", env.ATTACHMENT_MAX_BYTES) ?? DEFAULT_ATTACHMENT_MAX_BYTES,
    quotaBytes:
      bytes("ATTACHMENT_QUOTA_BYTES", env.ATTACHMENT_QUOTA_BYTES) ?? DEFAULT_ATTACHMENT_QUOTA_BYTES,
  };
}

const bytes = (name: string, value: string | undefined) =>
  positiveSetting(name, value, { integer: true });
