// Which of a few languages a text is in, from its letter trigrams: each language's profile ranks
// its 300 most frequent trigrams (language-trigrams.ts), and the text goes to the language whose
// profile ranks the text's trigrams highest. A trigram the profile lacks costs as much as its last.
import { TRIGRAM_PROFILES } from "./language-trigrams";

/** What a trigram a language's profile lacks adds to that language's distance. */
const ABSENT = 300;
/** Only the start of a long message is read: a few hundred trigrams decide it. */
const MAX_CHARS = 2_048;

type Script = keyof typeof TRIGRAM_PROFILES;

/** Each script's languages, with their trigram → rank (0 = most frequent). */
const RANKS = Object.fromEntries(
  Object.entries(TRIGRAM_PROFILES).map(([script, languages]) => [
    script,
    Object.entries(languages).map(
      ([code, profile]) =>
        [code, new Map(profile.split("|").map((trigram, rank) => [trigram, rank]))] as const,
    ),
  ]),
) as Record<Script, Array<readonly [string, Map<string, number>]>>;

const LETTERS: Record<Script, RegExp> = {
  Latin: /\p{Script=Latin}/gu,
  Cyrillic: /\p{Script=Cyrillic}/gu,
};

/** The script most of the text's letters are in, of those with profiles; null for neither. */
function scriptOf(text: string): Script | null {
  let best: { script: Script; letters: number } | null = null;
  for (const script of Object.keys(LETTERS) as Script[]) {
    const letters = text.match(LETTERS[script])?.length ?? 0;
    if (letters > (best?.letters ?? 0)) best = { script, letters };
  }
  return best?.script ?? null;
}

/**
 * The text's trigrams and how often each occurs: lower case, ASCII digits and punctuation as
 * spaces (the profiles were made so), runs of space as one, a space at each end.
 */
function trigramCounts(text: string): Map<string, number> {
  const cleaned = ` ${text
    .replace(/[\u0021-\u0040]+/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .toLowerCase()} `;
  const counts = new Map<string, number>();
  for (let i = 0; i + 3 <= cleaned.length; i++) {
    const trigram = cleaned.slice(i, i + 3);
    counts.set(trigram, (counts.get(trigram) ?? 0) + 1);
  }
  return counts;
}

/**
 * The ISO 639-3 code of the language the text is in, of those with a trigram profile, or null
 * when its letters are in no profiled script or it is shorter than `minLength` characters.
 */
export function trigramLanguage(text: string, minLength = 10): string | null {
  if (text.length < minLength) return null;
  const sample = text.slice(0, MAX_CHARS);
  const script = scriptOf(sample);
  if (!script) return null;
  const counts = trigramCounts(sample);
  let best: { code: string; distance: number } | null = null;
  for (const [code, ranks] of RANKS[script]) {
    let distance = 0;
    for (const [trigram, count] of counts) distance += count * (ranks.get(trigram) ?? ABSENT);
    if (!best || distance < best.distance) best = { code, distance };
  }
  return best?.code ?? null;
}
