import type { FinishReason } from "../types";

/** Ollama's `done_reason` ("stop", "length"; "load"/"unload" never end a chat answer). */
export const mapOllamaDoneReason = (reason: string | undefined, hadCalls: boolean): FinishReason =>
  hadCalls ? "tool_calls" : reason === "length" ? "length" : "stop";
