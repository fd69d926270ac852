import type Anthropic from "@anthropic-ai/sdk";
import type { FinishReason } from "../types";

const STOP_REASONS: Record<Anthropic.StopReason, FinishReason> = {
  end_turn: "stop",
  stop_sequence: "stop",
  pause_turn: "stop",
  tool_use: "tool_calls",
  max_tokens: "length",
  model_context_window_exceeded: "length",
  refusal: "content_filter",
};

export const mapAnthropicStopReason = (reason: string | null | undefined): FinishReason =>
  (reason && STOP_REASONS[reason as Anthropic.StopReason]) || "stop";
