// Artifact type rules from the reference: many spellings, a few canonical types.
export const KNOWLEDGE_GRAPH = "application/vnd.knowledge-graph";
export const CODE = "application/vnd.ant.code";
export const BIBLIOGRAPHY = "application/vnd.bibliography";
export const MARKDOWN = "text/markdown";

export function normalizeArtifactType(type: string | undefined | null): string {
  const t = (type ?? "").trim().toLowerCase();
  if (!t || t === "text" || t === "markdown") return MARKDOWN;
  if (t.startsWith("image/")) return t;
  if (
    t === "application/vnd.ant.python" ||
    t === CODE ||
    t.startsWith("code/") ||
    t.includes("code")
  )
    return CODE;
  // "bibliography" contains "graph": recognise it before knowledge graphs.
  if (t.includes("bibliograph") || t.includes("citation")) return BIBLIOGRAPHY;
  if (t.includes("knowledge") || t.includes("graph")) return KNOWLEDGE_GRAPH;
  if (t === "json") return "application/json";
  return t;
}
