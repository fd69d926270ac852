// PubMed through NCBI E-utilities: esearch (JSON), esummary (JSON), efetch (XML, for abstracts).
import { z } from "zod";
import type { McpEnv } from "../env";
import { type Outside, OutsideApiError } from "../outside";
import { clip, clipList } from "../result-bounds";

const EUTILS = "https://eutils.ncbi.nlm.nih.gov/entrez/eutils";

export interface Article {
  pmid: string;
  title: string;
  authors: string[];
  journal: string;
  year: number | null;
  doi: string | null;
  abstract: string | null;
}

function url(env: McpEnv, tool: string, params: Record<string, string>): string {
  const u = new URL(`${env.EUTILS_BASE_URL ?? EUTILS}/${tool}`);
  for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
  u.searchParams.set("tool", "thinking-chat");
  // NCBI asks for a contact address and allows more requests with a key.
  if (env.NCBI_TOOL_EMAIL) u.searchParams.set("email", env.NCBI_TOOL_EMAIL);
  if (env.NCBI_API_KEY) u.searchParams.set("api_key", env.NCBI_API_KEY);
  return u.toString();
}

const PMID = /^\d{1,9}$/;
/** NCBI's reason for refusing a query, as much of it as a person would read. */
const MAX_ERROR = 500;

/** Field bounds of a bibliography entry: enough for any real article. */
export const ARTICLE_BOUNDS = {
  title: 1_000,
  authors: 50,
  author: 200,
  journal: 300,
  abstract: 10_000,
};

const SearchResult = z.object({
  esearchresult: z.object({
    count: z.string().optional(),
    idlist: z.array(z.string()).optional(),
    // NCBI answers 200 with an ERROR field for a query it cannot run.
    ERROR: z.string().optional(),
  }),
});

export async function searchPubMed(
  env: McpEnv,
  http: Outside,
  q: {
    query: string;
    maxResults: number;
    minDate?: string | undefined;
    maxDate?: string | undefined;
    sort: "relevance" | "pub_date";
  },
) {
  const body = await http.json(
    "PubMed",
    url(env, "esearch.fcgi", {
      db: "pubmed",
      term: q.query,
      retmode: "json",
      retmax: String(q.maxResults),
      sort: q.sort,
      ...(q.minDate || q.maxDate
        ? { datetype: "pdat", mindate: q.minDate ?? "1800", maxdate: q.maxDate ?? "3000" }
        : {}),
    }),
  );
  const parsed = SearchResult.safeParse(body);
  if (!parsed.success)
    throw new OutsideApiError(
      "malformed",
      "PubMed",
      200,
      "PubMed sent a search result in an unexpected shape.",
    );
  const r = parsed.data.esearchresult;
  if (r.ERROR)
    throw new OutsideApiError(
      "refused_query",
      "PubMed",
      200,
      // NCBI's text goes to the model as is, so it is bounded like every other field.
      `PubMed could not run the query: ${clip(r.ERROR, MAX_ERROR)}`,
    );
  // NCBI may send more ids than retmax asked for; only what was asked goes on.
  const all = (r.idlist ?? []).filter((id) => PMID.test(id));
  const pmids = all.slice(0, q.maxResults);
  // Without a count, the ids sent are what is known to match.
  const total = Number(r.count ?? all.length);
  return { total: Number.isFinite(total) ? total : all.length, pmids };
}

const Summary = z.object({
  uid: z.string(),
  // esummary answers an unknown PMID with an entry holding only uid and error.
  error: z.string().optional(),
  title: z.string().default(""),
  authors: z.array(z.object({ name: z.string() })).default([]),
  fulljournalname: z.string().optional(),
  source: z.string().optional(),
  pubdate: z.string().default(""),
  articleids: z.array(z.object({ idtype: z.string(), value: z.string() })).default([]),
});
const SummaryResult = z.object({
  result: z.record(z.string(), z.unknown()).and(z.object({ uids: z.array(z.string()) })),
});

export async function articleDetails(
  env: McpEnv,
  http: Outside,
  pmids: string[],
  onStep?: (step: number, message: string) => Promise<void>,
): Promise<Article[]> {
  await onStep?.(0, "fetching summaries");
  const summaries = SummaryResult.safeParse(
    await http.json(
      "PubMed",
      url(env, "esummary.fcgi", { db: "pubmed", id: pmids.join(","), retmode: "json" }),
    ),
  );
  if (!summaries.success)
    throw new OutsideApiError(
      "malformed",
      "PubMed",
      200,
      "PubMed sent summaries in an unexpected shape.",
    );
  await onStep?.(1, "fetching abstracts");
  const xml = await http.text(
    "PubMed",
    url(env, "efetch.fcgi", { db: "pubmed", id: pmids.join(","), retmode: "xml" }),
  );
  const abstracts = abstractsFromXml(xml);
  const out: Article[] = [];
  // Only the articles asked for, once each, in the order asked, whatever NCBI sends besides.
  for (const pmid of new Set(pmids)) {
    const s = Summary.safeParse(summaries.data.result[pmid]);
    if (!s.success || s.data.error || s.data.uid !== pmid) continue;
    const year = /\b(1[89]\d\d|20\d\d)\b/.exec(s.data.pubdate)?.[1];
    const doi = s.data.articleids.find((a) => a.idtype === "doi")?.value;
    const abstract = abstracts.get(pmid);
    const b = ARTICLE_BOUNDS;
    out.push({
      pmid,
      title: clip(s.data.title.replace(/\.$/, ""), b.title),
      authors: clipList(
        s.data.authors.map((a) => a.name),
        b.authors,
        b.author,
      ),
      journal: clip(s.data.fulljournalname ?? s.data.source ?? "", b.journal),
      year: year ? Number(year) : null,
      doi: doi ? clip(doi, 200) : null,
      abstract: abstract ? clip(abstract, b.abstract) : null,
    });
  }
  return out;
}

const decode = (s: string) =>
  s
    .replace(/<[^>]+>/g, "")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, "&")
    .trim();

/** PMID → abstract text, from efetch's PubmedArticleSet XML. */
export function abstractsFromXml(xml: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const article of xml.split(/<PubmedArticle>/).slice(1)) {
    const pmid = /<PMID[^>]*>(\d+)<\/PMID>/.exec(article)?.[1];
    const parts = [...article.matchAll(/<AbstractText([^>]*)>([\s\S]*?)<\/AbstractText>/g)].map(
      (m) => {
        const label = /Label="([^"]+)"/.exec(m[1] ?? "")?.[1];
        return `${label ? `${label}: ` : ""}${decode(m[2] ?? "")}`;
      },
    );
    if (pmid && parts.length) out.set(pmid, parts.join("\n"));
  }
  return out;
}
