// A model refused something a turn asked of it, and its provider asked again without it
// (providers/ask-again.ts): the user is told once per conversation and model what that means for
// the answers, and a model that refused native tools is remembered, so later turns describe the
// tools in its prompt at once instead of being refused first (a round trip each turn).
import type { NewServerEvent } from "../protocol/wire";
import type { AskedAgain } from "../providers/types";
import { addToMetaList, metaList } from "./meta-list";
import type { ConversationStore } from "./store";

/** "what|model" of each refusal the user was told about, as a JSON list. */
const TOLD = "refusals_told";
/** The models of this conversation that refused native tools, as a JSON list. */
const WITHOUT_NATIVE_TOOLS = "models_without_native_tools";

type Meta = Pick<ConversationStore, "getMeta" | "setMeta">;

const quoted = (message: string) => `(“${message.replace(/\s+/g, " ").trim()}”)`;

/** What the user is told of a refusal, or null for one that changes nothing they would notice. */
export function refusalNotice({ what, model, message }: AskedAgain): string | null {
  switch (what) {
    case "native tools":
      return (
        `${model} refused native tool calls ${quoted(message)}, so from now on its tools are ` +
        "described in its system prompt and it calls them with tool_call blocks in its answer. " +
        "Such calls are less reliable; for better ones, pick a model with native tools."
      );
    case "images":
      return (
        `${model} cannot see images ${quoted(message)}: each image is named in text instead, ` +
        "so the model does not look at it. To have images seen, pick a model that takes them."
      );
    case "reasoning effort":
      return (
        `${model} does not take a reasoning effort ${quoted(message)}, so it is asked without ` +
        "one: the conversation's reasoning effort has no effect on this model."
      );
    default:
      return null;
  }
}

/** A refusal reported by the provider: remembered, and told the first time it is met. */
export function noteRefusal(
  store: Meta,
  refusal: AskedAgain,
  emit: (event: NewServerEvent) => void,
): void {
  if (refusal.what === "native tools") addToMetaList(store, WITHOUT_NATIVE_TOOLS, refusal.model);
  const message = refusalNotice(refusal);
  if (message && addToMetaList(store, TOLD, `${refusal.what}|${refusal.model}`))
    emit({ type: "notice", level: "warning", message });
}

/** Whether `model` refused native tools in this conversation before. */
export const refusedNativeTools = (store: Meta, model: string): boolean =>
  metaList(store, WITHOUT_NATIVE_TOOLS).includes(model);
