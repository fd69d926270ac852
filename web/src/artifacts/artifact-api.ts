// REST calls for artifacts, through ../api.ts's request: same-origin cookie, zod-parsed answers,
// failures as ApiFailure with the server's code and words.
import { z } from "zod";
import { Artifact, ArtifactVersion } from "../../../durable-objects/protocol/rest";
import { ApiFailure, apiRequest as request } from "../api";

const path = (id: string) => `/api/artifacts/${encodeURIComponent(id)}`;

/** Where the browser fetches an artifact's bytes; `attachment` forces a file download. */
export function downloadUrl(id: string, attachment = false): string {
  return `${path(id)}/download${attachment ? "?attachment=1" : ""}`;
}

export const artifactApi = {
  list: (conversationId: string) =>
    request(
      z.object({ items: z.array(Artifact) }),
      `/api/conversations/${encodeURIComponent(conversationId)}/artifacts`,
    ),
  get: (id: string) => request(Artifact, path(id)),
  /** `baseUpdatedAt`: the version edited; the server refuses (409) if it changed since. */
  update: (id: string, patch: { content?: string; title?: string; baseUpdatedAt?: number }) =>
    request(Artifact, path(id), { method: "PATCH", json: patch }),
  versions: (id: string) =>
    request(z.object({ items: z.array(ArtifactVersion) }), `${path(id)}/versions`),
  version: (id: string, versionId: string) =>
    request(ArtifactVersion, `${path(id)}/versions/${encodeURIComponent(versionId)}`),
  pin: (id: string, pinned: boolean) =>
    request(Artifact, `${path(id)}/pin`, { method: pinned ? "PUT" : "DELETE" }),
  remove: (id: string) => request(z.undefined(), path(id), { method: "DELETE" }),
};

/** Whether a save was refused because someone saved another version since it was opened. */
export const isStaleEdit = (err: unknown) => err instanceof ApiFailure && err.status === 409;

/** Words for a failed call that a person can act on. */
export function failureWords(err: unknown): string {
  if (err instanceof ApiFailure) {
    if (err.status === 401) return "Your session has ended; sign in again.";
    if (err.status === 404) return "This artifact no longer exists.";
    return err.message;
  }
  if (err instanceof z.ZodError) return "The server sent an answer this page cannot read.";
  if (err instanceof TypeError) return "Could not reach the server; check the connection.";
  return err instanceof Error ? err.message : String(err);
}
