// A `branch` frame on a conversation's WebSocket: the branch is made as by the REST route, and
// the socket hears `branched` with its id, or a frame_error saying what was wrong.
import { ApiError } from "../../../shared/api-error";
import type { ServerControl } from "../../protocol/wire";
import { createBranch, type CreateBranchInput } from "./create-branch";

export async function branchFromFrame(input: CreateBranchInput): Promise<ServerControl> {
  try {
    const { id } = await createBranch(input);
    return { type: "branched", conversationId: id };
  } catch (err) {
    if (err instanceof ApiError)
      return { type: "frame_error", error: { code: err.code, message: err.message } };
    console.error("branch failed", err);
    return {
      type: "frame_error",
      error: {
        code: "internal",
        message: "The branch could not be made; nothing was changed. Try again.",
      },
    };
  }
}
