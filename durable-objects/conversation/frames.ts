// Parsing of client WebSocket frames: size, JSON, then the shared zod union.
import { ClientFrame, MAX_CLIENT_FRAME_BYTES } from "../protocol/wire";
import type { ErrorInfo } from "../protocol/wire";

// Derived from the schema so the hint in the error cannot drift from the frames accepted.
export const CLIENT_FRAME_TYPES: readonly string[] = ClientFrame.options.map(
  (option) => option.shape.type.value,
);

export type FrameResult = { ok: true; frame: ClientFrame } | { ok: false; error: ErrorInfo };

export function parseClientFrame(raw: string | ArrayBuffer | ArrayBufferView): FrameResult {
  if (typeof raw !== "string") {
    return {
      ok: false,
      error: {
        code: "binary_frame",
        message: "Send JSON text frames; binary frames are not accepted.",
      },
    };
  }
  if (
    raw.length > MAX_CLIENT_FRAME_BYTES ||
    new TextEncoder().encode(raw).length > MAX_CLIENT_FRAME_BYTES
  ) {
    return {
      ok: false,
      error: {
        code: "frame_too_large",
        message: `Frames are limited to ${MAX_CLIENT_FRAME_BYTES / 1024} KiB.`,
      },
    };
  }
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return { ok: false, error: { code: "invalid_json", message: "The frame is not valid JSON." } };
  }
  const parsed = ClientFrame.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? issue.path.join(".") : "frame";
    return {
      ok: false,
      error: {
        code: "invalid_frame",
        message: `Invalid frame at ${where}: ${issue?.message ?? "unknown problem"}. Expected one of ${CLIENT_FRAME_TYPES.join(", ")}.`,
      },
    };
  }
  return { ok: true, frame: parsed.data };
}
