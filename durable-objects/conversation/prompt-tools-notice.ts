// Tells the user, once per conversation, that its model calls tools through blocks in its text
// (prompt-based tool calling) rather than natively: such calls are less reliable, and the user
// should know why answers contain tool_call blocks and how to change it.
import type { NewServerEvent } from "../protocol/wire";
import { toolCallingOf } from "../providers/prompt-tools/capabilities";
import type { ConversationStore } from "./store";
import type { ConversationInfo } from "./turn";

const TOLD = "prompt_tools_told";

export const promptToolsNotice = (model: string) =>
  `${model} calls tools in prompt mode: it has no native tool calling (or the conversation's ` +
  "toolCalling setting asks for prompt mode), so the tools are described in its system prompt " +
  "and it calls them with tool_call blocks in its answer. Such calls are less reliable; for " +
  "better ones, pick a model with native tools, or set toolCalling to native if this model has them.";

export function announcePromptTools(
  store: Pick<ConversationStore, "getMeta" | "setMeta">,
  conversation: Pick<ConversationInfo, "provider" | "model" | "settings">,
  emit: (event: NewServerEvent) => void,
): void {
  const mode = toolCallingOf(
    conversation.provider,
    conversation.model,
    conversation.settings.toolCalling,
  );
  if (mode !== "prompt" || store.getMeta(TOLD)) return;
  store.setMeta(TOLD, conversation.model);
  emit({ type: "notice", level: "info", message: promptToolsNotice(conversation.model) });
}
