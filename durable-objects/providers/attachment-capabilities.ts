// What a model can take of a user's attachments: images (models that see) and PDFs as documents
// (Anthropic and Gemini read them natively, and OpenAI's models that see, through the Responses
// API). What it cannot take goes to it as text.
import type { ProviderId } from "./types";

export interface AttachmentCapabilities {
  images: boolean;
  pdfDocuments: boolean;
}

// Ollama serves whatever the user pulled: only its vision models see images.
const OLLAMA_VISION =
  /(llava|bakllava|vision|-vl\b|vl:|qwen2\.5vl|gemma3|moondream|minicpm-v|llama4|mistral-small3\.[12]|granite3\.2-vision)/i;
// OpenAI models from before vision, and the reasoning models without image input.
const OPENAI_WITHOUT_VISION = /^(gpt-3\.5|gpt-4-(0314|0613|32k)|o1-mini|o3-mini)/i;

export function attachmentCapabilitiesOf(
  provider: ProviderId,
  model: string,
  /** Which OpenAI API the deployment calls (api-choice.ts); chat completions take no files. */
  openaiApi?: string,
): AttachmentCapabilities {
  switch (provider) {
    case "anthropic":
    case "gemini":
      return { images: true, pdfDocuments: true };
    case "openai": {
      const images = !OPENAI_WITHOUT_VISION.test(model);
      return { images, pdfDocuments: images && openaiApi === "responses" };
    }
    case "ollama":
      return { images: OLLAMA_VISION.test(model), pdfDocuments: false };
  }
}
