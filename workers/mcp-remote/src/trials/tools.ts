import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import type { McpEnv } from "../env";
import { guarded, structured } from "../tool-kit";
import { getTrial, searchTrials } from "./clinicaltrials";

const TrialShape = z.object({
  nctId: z.string(),
  title: z.string(),
  status: z.string().nullable(),
  phases: z.array(z.string()),
  conditions: z.array(z.string()),
  interventions: z.array(z.string()),
  locations: z.array(z.string()),
  summary: z.string().nullable(),
  url: z.string(),
});
const openWorld = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: true,
};

export function registerTrialTools(server: McpServer, env: McpEnv): void {
  server.registerTool(
    "trials_search",
    {
      title: "Search clinical trials",
      description:
        "Searches ClinicalTrials.gov by condition, intervention, status, phase and location.",
      inputSchema: {
        condition: z.string().max(200).optional(),
        intervention: z.string().max(200).optional(),
        status: z
          .array(
            z.enum([
              "RECRUITING",
              "NOT_YET_RECRUITING",
              "ACTIVE_NOT_RECRUITING",
              "COMPLETED",
              "TERMINATED",
              "WITHDRAWN",
              "SUSPENDED",
              "ENROLLING_BY_INVITATION",
            ]),
          )
          .max(8)
          .optional(),
        phase: z
          .array(z.enum(["EARLY_PHASE1", "PHASE1", "PHASE2", "PHASE3", "PHASE4", "NA"]))
          .max(6)
          .optional(),
        location: z.string().max(200).optional(),
        pageSize: z.number().int().min(1).max(50).default(10),
      },
      outputSchema: { trials: z.array(TrialShape), nextPageToken: z.string().nullable() },
      annotations: openWorld,
    },
    (args) =>
      guarded(async () => {
        if (!args.condition && !args.intervention && !args.location) {
          return {
            content: [
              { type: "text", text: "Give at least one of condition, intervention or location." },
            ],
            isError: true,
          };
        }
        const r = await searchTrials(env, args);
        return structured(r, `${r.trials.length} trials.`);
      }),
  );

  server.registerTool(
    "trial_get",
    {
      title: "One clinical trial",
      description: "Fetches one ClinicalTrials.gov study by its NCT id.",
      inputSchema: { nctId: z.string().regex(/^NCT\d{8}$/, "an NCT id looks like NCT01234567") },
      outputSchema: { trial: TrialShape },
      annotations: openWorld,
    },
    ({ nctId }) => guarded(async () => structured({ trial: await getTrial(env, nctId) })),
  );
}
