// The refusals of an attachment over a limit: what the limit is, and what the user can do.
import { ApiError } from "../http/errors";
import { formatBytes } from "../../../../durable-objects/protocol/format-bytes";

export function tooLarge(size: number | null, maxBytes: number): ApiError {
  const what = size === null ? "This file" : `This file (${formatBytes(size)})`;
  return new ApiError(
    413,
    "payload_too_large",
    `${what} is larger than the ${formatBytes(maxBytes)} an attachment may be. Attach a smaller file, or split it.`,
    { limit: "file", maxBytes, ...(size !== null && { size }) },
  );
}

/** `whose`: the uploader's own quota, or (a participant's upload) the conversation owner's. */
export function overQuota(
  size: number,
  used: number,
  quotaBytes: number,
  whose: "yours" | "owner" = "yours",
): ApiError {
  const left = Math.max(0, quotaBytes - used);
  const room = `${formatBytes(left)} is left and this file is ${formatBytes(size)}.`;
  return new ApiError(
    413,
    "quota_exceeded",
    whose === "yours"
      ? `Your attachments would pass your quota of ${formatBytes(quotaBytes)}: ${room} ` +
          "Delete attachments you no longer need (or whole conversations) to make room."
      : "Files in this conversation count toward its owner's attachment quota of " +
          `${formatBytes(quotaBytes)}, which this file would pass: ${room} Attach a smaller ` +
          "file, or ask the owner to make room.",
    { limit: "quota", quotaBytes, usedBytes: used, remainingBytes: left, size },
  );
}
