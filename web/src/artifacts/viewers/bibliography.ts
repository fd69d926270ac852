// Bibliography content, parsed leniently (the model writes it), formatted as citations, with
// links only to PubMed and doi.org and only for identifiers that look like what they claim.
import { z } from "zod";

export interface Reference {
  pmid: string | null;
  title: string;
  authors: string[];
  journal: string | null;
  year: number | null;
  doi: string | null;
  abstract: string | null;
}

const text = z.preprocess(
  (v) => (typeof v === "number" ? String(v) : v),
  z.string().trim().nullish().catch(null),
);

const author = z.union([
  z.string(),
  z
    .object({
      name: z.string().optional(),
      lastName: z.string().optional(),
      last_name: z.string().optional(),
      initials: z.string().optional(),
      firstName: z.string().optional(),
    })
    .transform((a) => {
      const last = a.lastName ?? a.last_name;
      if (last) return [last, a.initials ?? a.firstName].filter(Boolean).join(" ");
      return a.name ?? "";
    }),
]);

const authors = z.preprocess(
  // "Smith J, Doe A" or "Smith, J.; Doe, A.": semicolons separate authors when there are any.
  (v) => (typeof v === "string" ? v.split(v.includes(";") ? ";" : ",") : v),
  z.array(author.catch("")).catch([]),
);

const year = z.preprocess((v) => {
  if (typeof v === "number") return v;
  const m = typeof v === "string" ? /\b(1[5-9]|20)\d{2}\b/.exec(v) : null;
  return m ? Number(m[0]) : null;
}, z.number().int().nullable().catch(null));

const RawReference = z.looseObject({
  pmid: text,
  PMID: text,
  id: text,
  title: text,
  authors: authors.optional(),
  journal: text,
  source: text,
  year: year.optional(),
  pubdate: year.optional(),
  doi: text,
  abstract: text,
});

function normalise(raw: z.infer<typeof RawReference>): Reference | null {
  const title = raw.title ?? null;
  if (!title) return null;
  return {
    pmid: raw.pmid ?? raw.PMID ?? (raw.id && /^\d+$/.test(raw.id) ? raw.id : null),
    title,
    authors: (raw.authors ?? []).map((a) => a.trim()).filter(Boolean),
    journal: raw.journal ?? raw.source ?? null,
    year: raw.year ?? raw.pubdate ?? null,
    doi: raw.doi ?? null,
    abstract: raw.abstract ?? null,
  };
}

export type ParsedBibliography =
  { ok: true; references: Reference[]; skipped: number } | { ok: false; message: string };

/** References from the artifact's JSON: an array, or an object holding one. */
export function parseBibliography(content: string): ParsedBibliography {
  let value: unknown;
  try {
    value = JSON.parse(content);
  } catch {
    return { ok: false, message: "This bibliography is not valid JSON." };
  }
  if (value && typeof value === "object" && !Array.isArray(value)) {
    const o = value as Record<string, unknown>;
    value = o.references ?? o.items ?? o.articles ?? o.citations ?? o.results;
  }
  if (!Array.isArray(value)) {
    return { ok: false, message: "This bibliography holds no list of references." };
  }
  const references: Reference[] = [];
  for (const item of value) {
    const parsed = RawReference.safeParse(item);
    const ref = parsed.success ? normalise(parsed.data) : null;
    if (ref) references.push(ref);
  }
  return { ok: true, references, skipped: value.length - references.length };
}

export function formatAuthors(authors: readonly string[]): string {
  if (authors.length === 0) return "";
  if (authors.length <= 3) return authors.join(", ");
  return `${authors.slice(0, 3).join(", ")}, et al.`;
}

const sentence = (s: string) => (/[.?!]$/.test(s) ? s : `${s}.`);

/** "Authors. Title. Journal. Year." with whatever parts the reference has. */
export function formatCitation(ref: Reference): string {
  return [formatAuthors(ref.authors), ref.title, ref.journal, ref.year?.toString()]
    .filter((p): p is string => !!p)
    .map(sentence)
    .join(" ");
}

export function pubmedUrl(pmid: string | null): string | null {
  const id = pmid?.trim() ?? "";
  return /^\d{1,9}$/.test(id) ? `https://pubmed.ncbi.nlm.nih.gov/${id}/` : null;
}

export function doiUrl(doi: string | null): string | null {
  const id = (doi ?? "").trim().replace(/^(?:https?:\/\/(?:dx\.)?doi\.org\/|doi:\s*)/i, "");
  if (!/^10\.\d{4,9}\/[^\s]+$/.test(id)) return null;
  return `https://doi.org/${id.split("/").map(encodeURIComponent).join("/")}`;
}
