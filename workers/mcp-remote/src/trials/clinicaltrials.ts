// ClinicalTrials.gov API v2: study search and one study by NCT id.
import { z } from "zod";
import type { McpEnv } from "../env";
import { type Outside, OutsideApiError } from "../outside";
import { clip, clipList } from "../result-bounds";

const CTGOV = "https://clinicaltrials.gov/api/v2";
/** The longest pageToken trials_search accepts (its input schema says the same). */
export const MAX_PAGE_TOKEN = 200;

const Study = z
  .object({
    protocolSection: z
      .object({
        identificationModule: z
          .object({
            nctId: z.string(),
            briefTitle: z.string().default(""),
            officialTitle: z.string().optional(),
          })
          .passthrough(),
        statusModule: z
          .object({
            overallStatus: z.string().optional(),
            startDateStruct: z.object({ date: z.string() }).optional(),
          })
          .passthrough()
          .optional(),
        designModule: z
          .object({ phases: z.array(z.string()).optional(), studyType: z.string().optional() })
          .passthrough()
          .optional(),
        conditionsModule: z
          .object({ conditions: z.array(z.string()).optional() })
          .passthrough()
          .optional(),
        armsInterventionsModule: z
          .object({
            interventions: z
              .array(z.object({ name: z.string(), type: z.string().optional() }).passthrough())
              .optional(),
          })
          .passthrough()
          .optional(),
        descriptionModule: z
          .object({ briefSummary: z.string().optional() })
          .passthrough()
          .optional(),
        contactsLocationsModule: z
          .object({
            locations: z
              .array(
                z
                  .object({
                    facility: z.string().optional(),
                    city: z.string().optional(),
                    country: z.string().optional(),
                  })
                  .passthrough(),
              )
              .optional(),
          })
          .passthrough()
          .optional(),
      })
      .passthrough(),
  })
  .passthrough();

export interface Trial {
  nctId: string;
  title: string;
  status: string | null;
  phases: string[];
  conditions: string[];
  interventions: string[];
  locations: string[];
  summary: string | null;
  url: string;
}

function toTrial(study: z.infer<typeof Study>): Trial {
  const p = study.protocolSection;
  const nctId = clip(p.identificationModule.nctId, 20);
  const summary = p.descriptionModule?.briefSummary;
  return {
    nctId,
    title: clip(p.identificationModule.briefTitle, 500),
    status: p.statusModule?.overallStatus ? clip(p.statusModule.overallStatus, 50) : null,
    phases: clipList(p.designModule?.phases ?? [], 6, 30),
    conditions: clipList(p.conditionsModule?.conditions ?? [], 20, 200),
    interventions: clipList(
      (p.armsInterventionsModule?.interventions ?? []).map((i) => i.name),
      20,
      200,
    ),
    locations: clipList(
      (p.contactsLocationsModule?.locations ?? []).map((l) =>
        [l.facility, l.city, l.country].filter(Boolean).join(", "),
      ),
      10,
      300,
    ),
    summary: summary ? clip(summary, 4_000) : null,
    url: `https://clinicaltrials.gov/study/${nctId}`,
  };
}

export interface TrialQuery {
  condition?: string | undefined;
  intervention?: string | undefined;
  status?: string[] | undefined;
  phase?: string[] | undefined;
  location?: string | undefined;
  pageSize: number;
  pageToken?: string | undefined;
}

export async function searchTrials(
  env: McpEnv,
  http: Outside,
  q: TrialQuery,
): Promise<{ total: number | null; trials: Trial[]; nextPageToken: string | null }> {
  const u = new URL(`${env.CLINICALTRIALS_BASE_URL ?? CTGOV}/studies`);
  if (q.condition) u.searchParams.set("query.cond", q.condition);
  if (q.intervention) u.searchParams.set("query.intr", q.intervention);
  if (q.location) u.searchParams.set("query.locn", q.location);
  if (q.status?.length) u.searchParams.set("filter.overallStatus", q.status.join(","));
  // API v2 has no phase filter of its own; an Essie expression on the Phase area does it.
  if (q.phase?.length)
    u.searchParams.set("filter.advanced", `AREA[Phase](${q.phase.join(" OR ")})`);
  u.searchParams.set("pageSize", String(q.pageSize));
  u.searchParams.set("countTotal", "true");
  if (q.pageToken) u.searchParams.set("pageToken", q.pageToken);
  const body = z
    .object({
      studies: z.array(Study).default([]),
      nextPageToken: z.string().optional(),
      totalCount: z.number().optional(),
    })
    .safeParse(await http.json("ClinicalTrials.gov", u.toString()));
  if (!body.success)
    throw new OutsideApiError(
      "malformed",
      "ClinicalTrials.gov",
      200,
      "ClinicalTrials.gov sent studies in an unexpected shape.",
    );
  const token = body.data.nextPageToken;
  return {
    total: body.data.totalCount ?? null,
    // Only as many as were asked for, whatever the service sends.
    trials: body.data.studies.slice(0, q.pageSize).map(toTrial),
    // A token longer than pageToken accepts could not be used to ask for the next page.
    nextPageToken: token && token.length <= MAX_PAGE_TOKEN ? token : null,
  };
}

export async function getTrial(env: McpEnv, http: Outside, nctId: string): Promise<Trial> {
  const body = Study.safeParse(
    await http.json(
      "ClinicalTrials.gov",
      `${env.CLINICALTRIALS_BASE_URL ?? CTGOV}/studies/${encodeURIComponent(nctId)}`,
    ),
  );
  if (!body.success)
    throw new OutsideApiError(
      "malformed",
      "ClinicalTrials.gov",
      200,
      "ClinicalTrials.gov sent a study in an unexpected shape.",
    );
  return toTrial(body.data);
}
