// REST calls of sharing: members, read-only links, the user directory, what others shared with
// you, and a link's snapshot (the one call made without signing in).
import { z } from "zod";
import {
  MemberList,
  type MemberRole,
  SharedConversation,
  SharedSnapshot,
  ShareLink,
  UserRef,
} from "../../../durable-objects/protocol/sharing";
import { apiRequest } from "../api";
import { SHARED_WITH_ME_PATH } from "../first-requests";

const conv = (id: string) => `/api/conversations/${encodeURIComponent(id)}`;

export const sharingApi = {
  members: (id: string) => apiRequest(MemberList, `${conv(id)}/members`),
  share: (id: string, user: string, role: MemberRole) =>
    apiRequest(MemberList, `${conv(id)}/members`, { method: "PUT", json: { user, role } }),
  remove: (id: string, userId: string) =>
    apiRequest(z.undefined(), `${conv(id)}/members/${encodeURIComponent(userId)}`, {
      method: "DELETE",
    }),
  links: (id: string) => apiRequest(z.object({ items: z.array(ShareLink) }), `${conv(id)}/links`),
  createLink: (id: string, expiresInDays?: number) =>
    apiRequest(ShareLink, `${conv(id)}/links`, {
      method: "POST",
      json: expiresInDays === undefined ? {} : { expiresInDays },
    }),
  revokeLink: (id: string, linkId: string) =>
    apiRequest(z.undefined(), `${conv(id)}/links/${encodeURIComponent(linkId)}`, {
      method: "DELETE",
    }),
  users: (q: string) =>
    apiRequest(z.object({ items: z.array(UserRef) }), `/api/users?q=${encodeURIComponent(q)}`),
  sharedWithMe: () =>
    apiRequest(z.object({ items: z.array(SharedConversation) }), SHARED_WITH_ME_PATH),
  snapshot: (token: string) =>
    apiRequest(SharedSnapshot, `/api/shared/${encodeURIComponent(token)}`),
};
export type SharingApi = typeof sharingApi;
