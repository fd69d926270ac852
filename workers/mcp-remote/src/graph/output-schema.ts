// The knowledge-graph artifact shape (application/vnd.knowledge-graph) every graph result has.
import { z } from "zod";

export const KnowledgeGraphOutput = {
  nodes: z.array(
    z.object({
      id: z.string(),
      label: z.string(),
      type: z.string(),
      properties: z.record(z.string(), z.unknown()),
    }),
  ),
  links: z.array(
    z.object({
      source: z.string(),
      target: z.string(),
      type: z.string(),
      properties: z.record(z.string(), z.unknown()),
    }),
  ),
};
