// The file name a downloaded piece of code gets, with the extension its language expects (the
// same rules as the API's download route: durable-objects/protocol/file-names.ts).
import { languageExtension, safeFileName } from "../../../durable-objects/protocol/file-names";

export function extensionFor(language: string | null | undefined): string {
  return languageExtension(language) ?? "txt";
}

export const fileNameFor = safeFileName;
