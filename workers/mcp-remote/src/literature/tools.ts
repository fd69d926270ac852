// Literature tools: PubMed search and article details (as a bibliography), PubTator entities
// (as a knowledge graph).
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import type { McpEnv } from "../env";
import { KnowledgeGraphOutput } from "../graph/output-schema";
import { outside } from "../outside";
import { toolContext } from "../tool-context";
import { fitGraph, fitting, leftOut, MAX_RESULT_CHARS } from "../result-bounds";
import { guarded, refused, structured } from "../tool-kit";
import { articleDetails, searchPubMed } from "./pubmed";
import { annotationsGraph } from "./pubtator";

const Pmid = z.string().regex(/^\d{1,9}$/, "a PMID is a number such as 31452104");
const PubDate = z
  .string()
  .regex(/^\d{4}(\/\d{2}(\/\d{2})?)?$/, "use YYYY, YYYY/MM or YYYY/MM/DD")
  .optional();
/** A YYYY[/MM[/DD]] date as a sortable string, missing parts filled with `fill`. */
const dateKey = (date: string, fill: string) =>
  [...date.split("/"), fill, fill].slice(0, 3).join("/");
const openWorld = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: true,
};

export const BibliographyEntry = z.object({
  pmid: z.string(),
  title: z.string(),
  authors: z.array(z.string()),
  journal: z.string(),
  year: z.number().nullable(),
  doi: z.string().nullable(),
  abstract: z.string().nullable(),
});

export function registerLiteratureTools(server: McpServer, env: McpEnv): void {
  server.registerTool(
    "pubmed_search",
    {
      title: "Search PubMed",
      description:
        "Searches PubMed (NCBI E-utilities) and returns the total count and the matching PMIDs, best first. Use pubmed_fetch for titles, authors and abstracts.",
      inputSchema: {
        query: z
          .string()
          .trim()
          .min(1, "the query is blank")
          .max(500)
          .describe("PubMed query syntax, e.g. brca1 AND parp"),
        maxResults: z.number().int().min(1).max(100).default(10),
        minDate: PubDate.describe("Earliest publication date, YYYY[/MM[/DD]]"),
        maxDate: PubDate.describe("Latest publication date, YYYY[/MM[/DD]]"),
        sort: z.enum(["relevance", "pub_date"]).default("relevance"),
      },
      outputSchema: { total: z.number(), pmids: z.array(z.string()) },
      annotations: openWorld,
    },
    (args, extra) =>
      guarded(async () => {
        // PubMed answers a reversed span with no articles, which reads as "nothing published".
        if (
          args.minDate &&
          args.maxDate &&
          dateKey(args.minDate, "00") > dateKey(args.maxDate, "99")
        )
          return refused(
            `minDate ${args.minDate} is after maxDate ${args.maxDate}; the span must run forward.`,
          );
        const r = await searchPubMed(env, outside(env, toolContext(extra, "pubmed")), args);
        return structured(
          r,
          r.total === 0
            ? "No articles match."
            : `${r.total} articles match; the first ${r.pmids.length}: ${r.pmids.join(", ")}.`,
        );
      }),
  );

  server.registerTool(
    "pubmed_fetch",
    {
      title: "PubMed article details",
      description:
        "Title, authors, journal, year, DOI and abstract for PubMed IDs, returned as a bibliography.",
      inputSchema: { pmids: z.array(Pmid).min(1).max(50) },
      outputSchema: { bibliography: z.array(BibliographyEntry) },
      annotations: openWorld,
    },
    ({ pmids }, extra) =>
      guarded(async () => {
        const ctx = toolContext(extra, "pubmed");
        const articles = await articleDetails(env, outside(env, ctx), pmids, (step, message) =>
          ctx.progress(step, 2, message),
        );
        await ctx.progress(2, 2, "done");
        const missing = pmids.filter((p) => !articles.some((a) => a.pmid === p));
        const kept = fitting(articles, MAX_RESULT_CHARS);
        return structured(
          { bibliography: kept },
          `${kept.length} articles.${missing.length ? ` Not found: ${missing.join(", ")}.` : ""}${leftOut(articles.length - kept.length, "articles")}`,
        );
      }),
  );

  server.registerTool(
    "pubtator_annotations",
    {
      title: "Entities in articles (PubTator)",
      description:
        "Genes, diseases, chemicals, variants and species annotated in PubMed articles by PubTator3, with the relations between them, as a knowledge graph.",
      inputSchema: { pmids: z.array(Pmid).min(1).max(100) },
      outputSchema: KnowledgeGraphOutput,
      annotations: openWorld,
    },
    ({ pmids }, extra) =>
      guarded(async () => {
        const all = await annotationsGraph(
          env,
          outside(env, toolContext(extra, "pubtator")),
          pmids,
        );
        const { graph: g, dropped } = fitGraph(all, MAX_RESULT_CHARS);
        return structured(
          { nodes: g.nodes, links: g.links },
          `${g.nodes.length} entities and ${g.links.length} links.${leftOut(dropped, "entities and links")}`,
        );
      }),
  );
}
