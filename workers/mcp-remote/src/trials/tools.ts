// Clinical-trial tools: ClinicalTrials.gov API v2 search and one study by NCT id.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import type { McpEnv } from "../env";
import { outside, OutsideApiError } from "../outside";
import { toolContext } from "../tool-context";
import { fitting, leftOut, MAX_RESULT_CHARS } from "../result-bounds";
import { guarded, refused, structured } from "../tool-kit";
import { getTrial, MAX_PAGE_TOKEN, searchTrials } from "./clinicaltrials";

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
        condition: z.string().trim().max(200).optional(),
        intervention: z.string().trim().max(200).optional(),
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
        location: z.string().trim().max(200).optional(),
        pageSize: z.number().int().min(1).max(50).default(10),
        pageToken: z
          .string()
          .max(MAX_PAGE_TOKEN)
          .optional()
          .describe("nextPageToken of a previous search, for the next page"),
      },
      outputSchema: {
        total: z.number().nullable(),
        trials: z.array(TrialShape),
        nextPageToken: z.string().nullable(),
      },
      annotations: openWorld,
    },
    (args, extra) =>
      guarded(async () => {
        if (!args.condition && !args.intervention && !args.location)
          return refused("Give at least one of condition, intervention or location.");
        const r = await searchTrials(env, outside(env, toolContext(extra, "clinicaltrials")), args);
        const trials = fitting(r.trials, MAX_RESULT_CHARS);
        return structured(
          { ...r, trials },
          trials.length === 0
            ? "No trials match."
            : `${r.total ?? trials.length} trials match; ${trials.length} shown.${leftOut(r.trials.length - trials.length, "trials")}`,
        );
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
    ({ nctId }, extra) =>
      guarded(async () => {
        try {
          const trial = await getTrial(
            env,
            outside(env, toolContext(extra, "clinicaltrials")),
            nctId,
          );
          return structured(
            { trial },
            `${trial.nctId}: ${trial.title} (${trial.status ?? "status unknown"}).`,
          );
        } catch (err) {
          if (err instanceof OutsideApiError && err.status === 404)
            return refused(`ClinicalTrials.gov has no study ${nctId}.`);
          throw err;
        }
      }),
  );
}
