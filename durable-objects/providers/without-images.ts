// A history with its images named in text instead, for a model that cannot see: a provider
// refuses the whole request over one image (Ollama: "this model does not support image input"),
// and an image a tool returned stays in the turn's history, failing every step after it.
import { askAgainWithout } from "./ask-again";
import type { AskedAgain, ModelProvider, NeutralMessage, NeutralPart } from "./types";

type Content = Extract<NeutralPart, { type: "tool_result" }>["content"][number];

const left = (mediaType: string, model: string) =>
  `[an image (${mediaType}) was left out: ${model} cannot see images]`;

const blind = (c: Content, model: string): Content =>
  c.type === "image" ? { type: "text", text: left(c.mediaType, model) } : c;

export const hasImages = (messages: readonly NeutralMessage[]): boolean =>
  messages.some((m) =>
    m.content.some(
      (p) =>
        p.type === "image" ||
        (p.type === "tool_result" && p.content.some((c) => c.type === "image")),
    ),
  );

export function withoutImages(messages: NeutralMessage[], model: string): NeutralMessage[] {
  return messages.map((m) => ({
    ...m,
    content: m.content.map((p): NeutralPart => {
      if (p.type === "image") return { type: "text", text: left(p.mediaType, model) };
      if (p.type === "tool_result") return { ...p, content: p.content.map((c) => blind(c, model)) };
      return p;
    }),
  }));
}

/**
 * `provider` with images dropped for a model that refuses them (`refusedFor`, on an HTTP 400): the
 * request is asked again with each image named in text, and the model's later calls go that way
 * at once (a tool's image stays in the turn's history).
 */
export function imagesIfSeen(
  provider: ModelProvider,
  refusedFor: RegExp,
  onAskedAgain?: (refusal: AskedAgain) => void,
): ModelProvider {
  const blind = new Set<string>();
  return {
    id: provider.id,
    stream(request) {
      // No images: the stream as it is, with no layer between it and the loop.
      if (!hasImages(request.messages)) return provider.stream(request);
      const unseen = () => {
        blind.add(request.model);
        return provider.stream({
          ...request,
          messages: withoutImages(request.messages, request.model),
        });
      };
      if (blind.has(request.model)) return unseen();
      return askAgainWithout(() => provider.stream(request), unseen, {
        what: "images",
        model: request.model,
        refusedFor,
        onAskedAgain,
      });
    },
  };
}
