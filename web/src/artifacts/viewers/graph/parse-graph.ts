// Knowledge-graph content, parsed leniently: models write `links`, `edges` or `relationships`,
// `label` or `name`, endpoints as ids or as node objects. What cannot be used is counted and
// said, never thrown.
import { z } from "zod";

export interface GraphNode {
  id: string;
  label: string;
  /** null when the model gave the node no type. */
  type: string | null;
  properties: Record<string, unknown>;
}

export interface GraphLink {
  source: string;
  target: string;
  type: string | null;
  properties: Record<string, unknown>;
}

export interface Graph {
  nodes: GraphNode[];
  links: GraphLink[];
}

export type ParsedGraph =
  { ok: true; graph: Graph; notes: string[] } | { ok: false; message: string };

/** More nodes than this are not drawn: the layout would freeze the page. */
export const MAX_NODES = 3000;

const scalar = z
  .union([z.string(), z.number()])
  .transform((v) => String(v).trim())
  .optional()
  .catch(undefined);
const record = z.record(z.string(), z.unknown()).optional().catch(undefined);
const ref = z
  .union([z.string(), z.number(), z.looseObject({ id: z.union([z.string(), z.number()]) })])
  .transform((v) => String(typeof v === "object" ? v.id : v).trim())
  .optional()
  .catch(undefined);

const RawNode = z.looseObject({
  id: scalar,
  label: scalar,
  name: scalar,
  title: scalar,
  type: scalar,
  category: scalar,
  group: scalar,
  kind: scalar,
  labels: z.array(z.string()).optional().catch(undefined),
  properties: record,
  attributes: record,
  props: record,
});

const RawLink = z.looseObject({
  source: ref,
  target: ref,
  from: ref,
  to: ref,
  start: ref,
  end: ref,
  subject: ref,
  object: ref,
  type: scalar,
  label: scalar,
  relation: scalar,
  relationship: scalar,
  predicate: scalar,
  properties: record,
  attributes: record,
  props: record,
});

const NODE_KEYS = new Set([
  ...Object.keys(RawNode.shape),
  "x",
  "y",
  "vx",
  "vy",
  "fx",
  "fy",
  "index",
]);
const LINK_KEYS = new Set([...Object.keys(RawLink.shape), "index", "id"]);

type Raw = Record<string, unknown>;
const isObject = (v: unknown): v is Raw => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * What RawNode or RawLink makes of an item whose known fields all have the expected types (text
 * or numbers; endpoints as those or as objects with such an id; property records as objects;
 * `labels` as a list of text), read directly: zod takes over 20 ms for a 500-node graph's
 * 2,000 items, in the frame the graph opens in. Null for anything else, which the schema reads.
 */
function quick(
  item: unknown,
  scalars: readonly string[],
  refs: readonly string[],
  records: readonly string[],
): Raw | null {
  if (!isObject(item)) return null;
  const out: Raw = { ...item };
  for (const key of scalars) {
    const v = item[key];
    if (typeof v === "string" || typeof v === "number") out[key] = String(v).trim();
    else if (v !== undefined) return null;
  }
  for (const key of refs) {
    const v = item[key];
    const id = isObject(v) ? v.id : v;
    if (typeof id === "string" || typeof id === "number") out[key] = String(id).trim();
    else if (v !== undefined) return null;
  }
  for (const key of records) {
    const v = item[key];
    if (v !== undefined && !isObject(v)) return null;
  }
  const labels = item.labels;
  if (
    labels !== undefined &&
    !(Array.isArray(labels) && labels.every((l) => typeof l === "string"))
  )
    return null;
  return out;
}

const NODE_SCALARS = ["id", "label", "name", "title", "type", "category", "group", "kind"];
const LINK_SCALARS = ["type", "label", "relation", "relationship", "predicate"];
const LINK_REFS = ["source", "target", "from", "to", "start", "end", "subject", "object"];
const RECORDS = ["properties", "attributes", "props"];

function rawNode(item: unknown): z.infer<typeof RawNode> | null {
  const fast = quick(typeof item === "string" ? { id: item } : item, NODE_SCALARS, [], RECORDS);
  if (fast) return fast as z.infer<typeof RawNode>;
  const parsed =
    typeof item === "string" ? RawNode.safeParse({ id: item }) : RawNode.safeParse(item);
  return parsed.success ? parsed.data : null;
}

function rawLink(item: unknown): z.infer<typeof RawLink> | null {
  // A link's `labels` is no field of RawLink: quick must not judge it.
  const fast =
    isObject(item) && item.labels === undefined && quick(item, LINK_SCALARS, LINK_REFS, RECORDS);
  if (fast) return fast as z.infer<typeof RawLink>;
  const parsed = RawLink.safeParse(item);
  return parsed.success ? parsed.data : null;
}

// Fields the model put beside the known ones count as properties too.
function extras(raw: Record<string, unknown>, known: Set<string>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(raw).filter(([k]) => !known.has(k)));
}

const nonEmpty = (...values: (string | undefined)[]) =>
  values.find((v) => v !== undefined && v !== "");

function unwrap(value: unknown): Record<string, unknown> | null {
  if (!value || typeof value !== "object" || Array.isArray(value)) return null;
  const o = value as Record<string, unknown>;
  for (const key of ["graph", "knowledge_graph", "knowledgeGraph", "data"]) {
    const inner = o[key];
    if (inner && typeof inner === "object" && !Array.isArray(inner) && !("nodes" in o)) {
      return unwrap(inner);
    }
  }
  return o;
}

export function parseGraph(content: string): ParsedGraph {
  let value: unknown;
  try {
    value = JSON.parse(content);
  } catch {
    return { ok: false, message: "This knowledge graph is not valid JSON." };
  }
  const o = unwrap(value);
  if (!o)
    return { ok: false, message: "This knowledge graph is not an object with nodes and links." };
  const rawNodes = o.nodes ?? o.entities ?? o.vertices ?? [];
  const rawLinks = o.links ?? o.edges ?? o.relationships ?? o.relations ?? [];
  if (!Array.isArray(rawNodes) || !Array.isArray(rawLinks)) {
    return { ok: false, message: "This knowledge graph's nodes or links are not lists." };
  }

  const notes: string[] = [];
  const nodes = new Map<string, GraphNode>();
  let badNodes = 0;
  for (const item of rawNodes) {
    const n = rawNode(item);
    if (!n) {
      badNodes++;
      continue;
    }
    const id = nonEmpty(n.id, n.name, n.label, n.title);
    if (id === undefined || nodes.has(id)) {
      badNodes++;
      continue;
    }
    nodes.set(id, {
      id,
      label: nonEmpty(n.label, n.name, n.title, id) ?? id,
      type: nonEmpty(n.type, n.category, n.group, n.kind, n.labels?.[0]) ?? null,
      properties: { ...extras(n, NODE_KEYS), ...n.attributes, ...n.props, ...n.properties },
    });
  }
  if (badNodes > 0)
    notes.push(`${badNodes} node${badNodes === 1 ? "" : "s"} without an id or repeated left out.`);

  const links: GraphLink[] = [];
  let badLinks = 0;
  let implicit = 0;
  for (const item of rawLinks) {
    const l = rawLink(item);
    const source = l && nonEmpty(l.source, l.from, l.start, l.subject);
    const target = l && nonEmpty(l.target, l.to, l.end, l.object);
    if (!l || source === undefined || target === undefined || source === null || target === null) {
      badLinks++;
      continue;
    }
    // A link may name a node the list left out: draw it rather than lose the link.
    for (const id of [source, target]) {
      if (!nodes.has(id)) {
        nodes.set(id, { id, label: id, type: null, properties: {} });
        implicit++;
      }
    }
    links.push({
      source,
      target,
      type: nonEmpty(l.type, l.label, l.relation, l.relationship, l.predicate) ?? null,
      properties: { ...extras(l, LINK_KEYS), ...l.attributes, ...l.props, ...l.properties },
    });
  }
  if (badLinks > 0)
    notes.push(`${badLinks} link${badLinks === 1 ? "" : "s"} without both ends left out.`);
  if (implicit > 0)
    notes.push(`${implicit} node${implicit === 1 ? "" : "s"} named only by links added.`);
  if (nodes.size > MAX_NODES) {
    return {
      ok: false,
      message: `This graph has ${nodes.size} nodes, too many to draw here (at most ${MAX_NODES}); download it instead.`,
    };
  }
  return { ok: true, graph: { nodes: [...nodes.values()], links }, notes };
}
