// Why the conversation ended an event stream before its turn did, when its last comment says so
// (durable-objects/conversation: the owner removed the reader, they left it, their credential was
// revoked, or the conversation was deleted). A /v1 answer then says that, with the status it calls for,
// rather than that the stream was cut short and the conversation has the rest (it is not theirs).
import {
  ACCESS_REVOKED_COMMENT,
  DELETED_COMMENT,
  LEFT_COMMENT,
} from "../../../../durable-objects/conversation/member-access";
import { REVOKED_COMMENT } from "../../../../durable-objects/conversation/sse-gate";
import { ApiError } from "../http/errors";
import { DO_NOT_RETRY } from "./turn-failures";

export function streamEndingError(comment: string | null): ApiError | null {
  switch (comment) {
    case ACCESS_REVOKED_COMMENT:
      return new ApiError(
        403,
        "forbidden",
        "The owner stopped sharing this conversation with you while the answer was coming: you can no longer follow it or send to it.",
        undefined,
        DO_NOT_RETRY,
      );
    case LEFT_COMMENT:
      return new ApiError(
        403,
        "forbidden",
        "You left this conversation (in another tab or client) while the answer was coming: you can no longer follow it or send to it. Only its owner can share it with you again.",
        undefined,
        DO_NOT_RETRY,
      );
    case REVOKED_COMMENT:
      return new ApiError(
        401,
        "unauthorized",
        "The API token this request was sent with was revoked or expired while the answer was coming. Create a new token and send again.",
        undefined,
        DO_NOT_RETRY,
      );
    case DELETED_COMMENT:
      return new ApiError(
        404,
        "not_found",
        "The conversation was deleted by its owner while the answer was coming.",
        undefined,
        DO_NOT_RETRY,
      );
    default:
      return null;
  }
}
