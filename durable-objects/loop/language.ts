// Language parity: the answer is in the language of the user's latest message. The language is
// detected from its letter trigrams (trigram-language.ts, no service to call) among the languages
// people commonly write to us in, and the system prompt names it, in English and in that language.
import type { trigramLanguage as TrigramLanguage } from "./trigram-language";

export interface Language {
  name: string;
  /** The instruction in the language itself: a model follows it more reliably. */
  instruction: string;
}

/** ISO 639-3 codes of the languages told apart, with what the prompt says for each. */
const LANGUAGES: Record<string, Language> = {
  eng: { name: "English", instruction: "Answer in English." },
  fra: { name: "French", instruction: "Réponds en français." },
  deu: { name: "German", instruction: "Antworte auf Deutsch." },
  spa: { name: "Spanish", instruction: "Responde en español." },
  ita: { name: "Italian", instruction: "Rispondi in italiano." },
  por: { name: "Portuguese", instruction: "Responda em português." },
  nld: { name: "Dutch", instruction: "Antwoord in het Nederlands." },
  pol: { name: "Polish", instruction: "Odpowiadaj po polsku." },
  rus: { name: "Russian", instruction: "Отвечай по-русски." },
  ukr: { name: "Ukrainian", instruction: "Відповідай українською." },
  tur: { name: "Turkish", instruction: "Türkçe cevap ver." },
  swe: { name: "Swedish", instruction: "Svara på svenska." },
  cmn: { name: "Chinese", instruction: "请用中文回答。" },
  jpn: { name: "Japanese", instruction: "日本語で答えてください。" },
  kor: { name: "Korean", instruction: "한국어로 답하세요." },
  arb: { name: "Arabic", instruction: "أجب باللغة العربية." },
  hin: { name: "Hindi", instruction: "हिंदी में उत्तर दें।" },
  ind: { name: "Indonesian", instruction: "Jawab dalam bahasa Indonesia." },
  vie: { name: "Vietnamese", instruction: "Hãy trả lời bằng tiếng Việt." },
};

/** Scripts that name their language outright, for messages too short for trigrams. */
const SCRIPTS: Array<[RegExp, string]> = [
  [/[\u3040-\u30ff]/, "jpn"],
  [/[\uac00-\ud7af]/, "kor"],
  [/[\u4e00-\u9fff]/, "cmn"],
  [/[\u0600-\u06ff]/, "arb"],
  [/[\u0900-\u097f]/, "hin"],
];

/**
 * Frequent short words per language: trigrams alone mistake short questions (English for
 * Indonesian), and a question to a chat is often short.
 */
const FUNCTION_WORDS: Record<string, string[]> = {
  eng: ["the", "and", "is", "are", "you", "what", "how", "can", "in", "of", "to", "does", "it"],
  fra: ["le", "la", "les", "est", "et", "vous", "que", "comment", "des", "une", "pour", "je"],
  deu: ["der", "die", "das", "und", "ist", "ich", "du", "wie", "nicht", "mit", "ein", "eine"],
  spa: ["el", "la", "los", "es", "y", "que", "cómo", "por", "una", "para", "con", "qué"],
  ita: ["il", "che", "è", "e", "di", "come", "per", "una", "sono", "non", "mi", "della"],
  por: ["o", "que", "é", "e", "os", "como", "para", "uma", "não", "com", "você", "do"],
  nld: ["de", "het", "een", "en", "is", "hoe", "wat", "niet", "van", "ik", "je", "dat"],
};

function byFunctionWords(text: string): string | null {
  const words = text.toLowerCase().match(/\p{L}+/gu) ?? [];
  let best: { code: string; hits: number } | null = null;
  let tie = false;
  for (const [code, list] of Object.entries(FUNCTION_WORDS)) {
    const hits = words.filter((w) => list.includes(w)).length;
    if (!best || hits > best.hits) {
      best = { code, hits };
      tie = false;
    } else if (hits === best.hits) tie = true;
  }
  return best && best.hits >= 2 && !tie ? best.code : null;
}

let trigramsLoading: Promise<typeof TrigramLanguage> | null = null;
/**
 * The trigram profiles are indexed as they load: by the first message that needs them, not at
 * every worker start-up.
 */
const loadTrigrams = () =>
  (trigramsLoading ??= import("./trigram-language").then((m) => m.trigramLanguage));

/**
 * The message without its tokens that hold a digit or an underscore (ids, hashes, code names):
 * the letters inside them are no language's words, and their runs of hex ("e", "a", "de") would
 * count as other languages' function words.
 */
const wordsOnly = (text: string) =>
  text
    .split(/\s+/)
    .filter((token) => !/[\d_]/.test(token))
    .join(" ");

/** The language of a message, or null when it is too short or too mixed to tell. */
export async function detectLanguage(text: string): Promise<Language | null> {
  const head = text.slice(0, 2_000);
  for (const [script, code] of SCRIPTS) if (script.test(head)) return LANGUAGES[code] ?? null;
  const sample = wordsOnly(head);
  // Trigrams decide long messages; short ones are decided by their function words when clear.
  const code =
    (sample.length < 200 && byFunctionWords(sample)) || (await loadTrigrams())(sample, 8);
  return code ? (LANGUAGES[code] ?? null) : null;
}

/** The system prompt's paragraph on the answer's language (of the user's latest message). */
export function languageInstruction(language: Language | null): string {
  if (!language)
    return "## Language\n\nAnswer in the language of the user's latest message unless they ask otherwise.";
  return (
    `## Language\n\nThe user's latest message is in ${language.name}. Answer in ${language.name} ` +
    `unless the user asks for another language. ${language.instruction}`
  );
}
