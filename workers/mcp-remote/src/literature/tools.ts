import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import type { McpEnv } from "../env";
import { guarded, progress, structured, type ToolExtra } from "../tool-kit";
import { articleDetails, searchPubMed } from "./pubmed";
import { annotationsGraph } from "./pubtator";

const Pmid = z.string().regex(/^\d{1,9}$/, "a PMID is a number such as 31452104");
const openWorld = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: true,
};

export function registerLiteratureTools(server: McpServer, env: McpEnv): void {
  server.registerTool(
    "pubmed_search",
    {
      title: "Search PubMed",
      description:
        "Searches PubMed and returns matching PMIDs with the total count. Use pubmed_fetch for details.",
      inputSchema: {
        query: z.string().min(1).max(500),
        maxResults: z.number().int().min(1).max(100).default(10),
        minDate: z
          .string()
          .regex(/^\d{4}(\/\d{2}(\/\d{2})?)?$/, "use YYYY, YYYY/MM or YYYY/MM/DD")
          .optional(),
        maxDate: z
          .string()
          .regex(/^\d{4}(\/\d{2}(\/\d{2})?)?$/, "use YYYY, YYYY/MM or YYYY/MM/DD")
          .optional(),
        sort: z.enum(["relevance", "pub_date"]).default("relevance"),
      },
      outputSchema: { total: z.number(), pmids: z.array(z.string()) },
      annotations: openWorld,
    },
    (args) =>
      guarded(async () => {
        const r = await searchPubMed(env, args);
        return structured(
          r,
          `${r.total} articles match; the first ${r.pmids.length}: ${r.pmids.join(", ")}.`,
        );
      }),
  );

  server.registerTool(
    "pubmed_fetch",
    {
      title: "Article details",
      description:
        "Title, authors, journal, year, DOI and abstract for PubMed IDs, also as a bibliography.",
      inputSchema: { pmids: z.array(Pmid).min(1).max(50) },
      outputSchema: {
        bibliography: z.array(
          z.object({
            pmid: z.string(),
            title: z.string(),
            authors: z.array(z.string()),
            journal: z.string(),
            year: z.number().nullable(),
            doi: z.string().nullable(),
            abstract: z.string().nullable(),
          }),
        ),
      },
      annotations: openWorld,
    },
    ({ pmids }, extra) =>
      guarded(async () => {
        const articles = await articleDetails(env, pmids, (step, message) =>
          progress(extra as unknown as ToolExtra, step, 2, message),
        );
        await progress(extra as unknown as ToolExtra, 2, 2, "done");
        return structured({ bibliography: articles }, `${articles.length} articles.`);
      }),
  );

  server.registerTool(
    "pubtator_annotations",
    {
      title: "Entities in articles (PubTator)",
      description:
        "Genes, diseases, chemicals, variants and their relations annotated in PubMed articles, as a knowledge graph.",
      inputSchema: { pmids: z.array(Pmid).min(1).max(100) },
      outputSchema: {
        nodes: z.array(z.record(z.string(), z.unknown())),
        links: z.array(z.record(z.string(), z.unknown())),
      },
      annotations: openWorld,
    },
    ({ pmids }) =>
      guarded(async () => {
        const g = await annotationsGraph(env, pmids);
        return structured(
          { nodes: g.nodes, links: g.links },
          `${g.nodes.length} entities and ${g.links.length} links.`,
        );
      }),
  );
}
