// Entity annotations from PubTator3 (genes, diseases, chemicals, variants and their relations),
// turned into a knowledge graph.
import { z } from "zod";
import type { McpEnv } from "../env";
import { type Outside, OutsideApiError } from "../outside";
import type { Graph } from "../graph/store";
import { clip } from "../result-bounds";

const PUBTATOR = "https://www.ncbi.nlm.nih.gov/research/pubtator3-api";
const MAX_ID = 200;
const MAX_LABEL = 200;
const MAX_TYPE = 40;

const Annotation = z
  .object({
    text: z.string().default(""),
    infons: z
      .object({
        identifier: z.string().nullable().optional(),
        type: z.string().default("Entity"),
        name: z.string().nullable().optional(),
      })
      .passthrough(),
  })
  .passthrough();
const Role = z.object({
  identifier: z.string(),
  type: z.string().optional(),
  name: z.string().optional(),
});
const Relation = z
  .object({
    infons: z
      .object({
        type: z.string().default("associated_with"),
        score: z.string().or(z.number()).optional(),
        role1: Role.optional(),
        role2: Role.optional(),
      })
      .passthrough(),
  })
  .passthrough();
const Document = z
  .object({
    id: z.string().or(z.number()).transform(String),
    passages: z
      .array(z.object({ annotations: z.array(Annotation).default([]) }).passthrough())
      .default([]),
    relations: z.array(Relation).default([]),
  })
  .passthrough();
const Export = z
  .object({ PubTator3: z.array(Document) })
  .or(z.array(Document).transform((docs) => ({ PubTator3: docs })));

export async function annotationsGraph(
  env: McpEnv,
  http: Outside,
  pmids: string[],
): Promise<Graph> {
  const body = await http.json(
    "PubTator",
    `${env.PUBTATOR_BASE_URL ?? PUBTATOR}/publications/export/biocjson?pmids=${pmids.map(encodeURIComponent).join(",")}`,
  );
  const parsed = Export.safeParse(body);
  if (!parsed.success)
    throw new OutsideApiError(
      "malformed",
      "PubTator",
      200,
      "PubTator sent annotations in an unexpected shape.",
    );
  const nodes = new Map<string, Graph["nodes"][number]>();
  const links = new Map<string, Graph["links"][number]>();
  const asked = new Set(pmids);
  for (const doc of parsed.data.PubTator3) {
    // Only the articles asked for, whatever PubTator sends besides.
    if (!asked.has(doc.id)) continue;
    const articleId = `PMID:${doc.id}`;
    nodes.set(articleId, {
      id: articleId,
      label: `PubMed ${doc.id}`,
      type: "article",
      properties: { pmid: doc.id },
    });
    for (const p of doc.passages) {
      for (const a of p.annotations) {
        const id =
          a.infons.identifier && a.infons.identifier !== "-"
            ? a.infons.identifier
            : `${a.infons.type}:${a.text.toLowerCase()}`;
        // No real identifier is this long; clipping one could merge two entities.
        if (id.length > MAX_ID) continue;
        if (!nodes.has(id))
          nodes.set(id, {
            id,
            label: clip(a.infons.name ?? a.text, MAX_LABEL),
            type: clip(a.infons.type.toLowerCase(), MAX_TYPE),
            properties: { mentions: 0 },
          });
        const node = nodes.get(id)!;
        node.properties = {
          ...node.properties,
          mentions: Number(node.properties.mentions ?? 0) + 1,
        };
        const key = `${articleId}|${id}|mentions`;
        if (!links.has(key))
          links.set(key, { source: articleId, target: id, type: "mentions", properties: {} });
      }
    }
    for (const r of doc.relations) {
      const { role1, role2, type, score } = r.infons;
      if (!role1 || !role2) continue;
      if (role1.identifier.length > MAX_ID || role2.identifier.length > MAX_ID) continue;
      for (const role of [role1, role2]) {
        if (!nodes.has(role.identifier))
          nodes.set(role.identifier, {
            id: role.identifier,
            label: clip(role.name ?? role.identifier, MAX_LABEL),
            type: clip((role.type ?? "entity").toLowerCase(), MAX_TYPE),
            properties: {},
          });
      }
      const key = `${role1.identifier}|${role2.identifier}|${type}`;
      if (!links.has(key))
        links.set(key, {
          source: role1.identifier,
          target: role2.identifier,
          type: clip(type.toLowerCase(), MAX_TYPE),
          properties: { pmid: doc.id, ...(score !== undefined && { score: Number(score) }) },
        });
    }
  }
  // Articles first, then the entities mentioned most: what a bound keeps is what matters most.
  const rank = (n: Graph["nodes"][number]) =>
    n.type === "article" ? Number.MAX_SAFE_INTEGER : Number(n.properties.mentions ?? 0);
  return {
    nodes: [...nodes.values()].sort((a, b) => rank(b) - rank(a)),
    links: [...links.values()],
  };
}
