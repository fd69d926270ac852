// Which models call tools natively and which through tool-call blocks in their text. A
// conversation's `toolCalling` setting decides; without it, models known to lack native tools
// (small local models served by Ollama) use blocks.
import type { ProviderId } from "../types";

export type ToolCalling = "native" | "prompt";

const WITHOUT_NATIVE_TOOLS = /^(gemma|phi|llama2|tinyllama|deepseek-r1|orca|vicuna)/i;

export function toolCallingOf(
  provider: ProviderId,
  model: string,
  setting?: ToolCalling,
): ToolCalling {
  if (setting) return setting;
  return provider === "ollama" && WITHOUT_NATIVE_TOOLS.test(model) ? "prompt" : "native";
}
