import type { FinishReason } from "../types";

const FINISH: Record<string, FinishReason> = {
  stop: "stop",
  tool_calls: "tool_calls",
  function_call: "tool_calls",
  length: "length",
  content_filter: "content_filter",
};

export const mapOpenAIFinishReason = (reason: string | null | undefined): FinishReason =>
  (reason && FINISH[reason]) || "stop";
