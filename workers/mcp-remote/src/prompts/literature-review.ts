// The literature_review prompt: a topic (and optionally a span of years) in, the user's request
// for a sourced review out, naming the tools of this server in the order that work needs them.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";

const Years = z
  .string()
  .regex(
    /^\s*\d{4}\s*(-\s*\d{4}\s*)?$/,
    "years is one year (2018: that year on) or a span (2018-2024)",
  )
  .refine((y) => {
    const { from, to } = yearSpan(y);
    return !to || from <= to;
  }, "years must run forward, e.g. 2018-2024");

/** "2018" → from 2018 on; "2018-2024" → those years. */
export function yearSpan(years: string): { from: string; to?: string } {
  const [from, to] = years.split("-").map((y) => y.trim());
  return { from: from!, ...(to && { to }) };
}

export function reviewRequest(topic: string, years?: string): string {
  const span = years ? yearSpan(years) : undefined;
  const when = span
    ? span.to
      ? ` published from ${span.from} to ${span.to}`
      : ` published in ${span.from} or later`
    : "";
  const dates = span
    ? ` with minDate "${span.from}"${span.to ? ` and maxDate "${span.to}"` : ""}`
    : "";
  return [
    `Write a literature review on: ${topic.trim()}${when ? ` (articles${when})` : ""}.`,
    "",
    "Work in this order:",
    `1. Search PubMed with pubmed_search${dates}; try two or three phrasings (synonyms, MeSH terms) and keep the most relevant 10-20 PMIDs.`,
    "2. Read them with pubmed_fetch (titles, authors, abstracts); drop the ones that are off topic.",
    "3. Find the genes, diseases, chemicals and variants they discuss with pubtator_annotations, and keep what matters in the knowledge graph with graph_merge.",
    "4. If the topic concerns a treatment, look for ongoing and completed trials with trials_search.",
    "",
    "Then write the review: background, main findings grouped by theme, where studies agree and disagree, open questions, and relevant trials. Cite every claim with its PMID (or NCT id), and end with the bibliography. Say plainly where the evidence is thin.",
  ].join("\n");
}

export function registerLiteratureReviewPrompt(server: McpServer): void {
  server.registerPrompt(
    "literature_review",
    {
      title: "Literature review",
      description:
        "A sourced review of the literature on a topic: PubMed search, abstracts, entities into the knowledge graph, related trials, then a review citing PMIDs.",
      argsSchema: {
        topic: z
          .string()
          .trim()
          .min(3, "topic needs at least 3 characters")
          .max(300, "topic is at most 300 characters")
          .describe("What the review is about, e.g. PARP inhibitors in BRCA-mutated breast cancer"),
        years: Years.optional().describe(
          "Publication years: 2018 (that year on) or 2018-2024 (a span)",
        ),
      },
    },
    ({ topic, years }) => ({
      description: `Literature review: ${topic}`,
      messages: [{ role: "user", content: { type: "text", text: reviewRequest(topic, years) } }],
    }),
  );
}
