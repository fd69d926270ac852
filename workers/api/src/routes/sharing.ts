// Sharing a conversation: its owner adds people of this instance as viewers or participants,
// changes or removes them, and makes read-only links to a snapshot. Removing someone, or making
// them a viewer, reaches their open sockets at once through the conversation's Durable Object.
import { type Context, Hono } from "hono";
import { z } from "zod";
import {
  AddMember,
  CreateShareLink,
  type MemberList,
  type MemberRole,
  type SharedSnapshot,
} from "../../../../durable-objects/protocol/sharing";
import { messageForViewer } from "../../../../durable-objects/protocol/viewer-view";
import type { AppEnv } from "../app-types";
import { downloadResponse } from "../artifact-download";
import { conversationStub } from "../conversation-lifecycle";
import { conversationFor } from "../db/conversation-access";
import { getConversationRow } from "../db/conversations";
import {
  leaveConversation,
  listMembers,
  putMember,
  removeMember,
  searchUsers,
  sharedWith,
  userRef,
  usersNamed,
} from "../db/members";
import { listMessages } from "../db/messages";
import { snapshotArtifact, snapshotArtifacts } from "../db/snapshot-artifacts";
import { createShareLink, listShareLinks, liveShareLink, revokeShareLink } from "../db/share-links";
import type { Env } from "../../../../shared/env";
import { ApiError, notFound } from "../http/errors";
import { parseJsonBody, parseParam } from "../http/validate";
import { validQuery } from "../http/validated";
import { DownloadQuery } from "../artifact-download";
import { IdParam } from "./conversations";

/** The snapshot a link shows holds at most this many messages. */
const SNAPSHOT_MESSAGES = 1000;

/**
 * Tells the conversation's object, so the user's open sockets follow the change at once; `left`:
 * the user removed themself, and their other tabs say so rather than "the owner stopped sharing".
 * The change is in D1 by now, and the object re-reads it (member-recheck.ts, and every frame that
 * writes): a word that cannot be sent (the object reset by a deploy, say) is logged, not reported
 * as a failed change the caller would retry.
 */
async function tellConversation(
  env: Env,
  id: string,
  userId: string,
  role: MemberRole | null,
  left = false,
) {
  try {
    const stub = await conversationStub(env, id);
    await stub.accessChanged(userId, role, left);
  } catch (err) {
    console.warn("could not tell the conversation of a change in who may use it", err);
  }
}

/** Mounted on /api/conversations (behind requireUser). */
export const sharingRoutes = new Hono<AppEnv>()
  .get("/:id/members", async (c) => {
    const id = parseParam(c, "id", IdParam);
    const { row, role } = await conversationFor(c.get("db"), c.get("user").id, id, "read");
    const db = c.get("db");
    const [owner, members] = await Promise.all([userRef(db, row.userId), listMembers(db, id)]);
    return c.json({ role, owner, members } satisfies MemberList);
  })
  .put("/:id/members", async (c) => {
    const id = parseParam(c, "id", IdParam);
    const body = await parseJsonBody(c, AddMember);
    const db = c.get("db");
    const me = c.get("user");
    await conversationFor(db, me.id, id, "manage");
    const found = await usersNamed(db, body.user);
    const [user] = found;
    if (!user)
      throw new ApiError(
        404,
        "not_found",
        `No user named '${body.user}' on this instance. Check the spelling, or pick a name from the list.`,
      );
    if (found.length > 1)
      throw new ApiError(
        409,
        "conflict",
        `Several users are named '${body.user}'. Pick one from the list (it adds them by id).`,
      );
    if (user.id === me.id)
      throw new ApiError(400, "bad_request", "You own this conversation: you cannot add yourself.");
    await putMember(db, id, user.id, body.role);
    await tellConversation(c.env, id, user.id, body.role);
    return c.json({
      role: "owner",
      owner: me,
      members: await listMembers(db, id),
    } satisfies MemberList);
  })
  // The owner removes a member; a member may also leave by removing themself.
  .delete("/:id/members/:userId", async (c) => {
    const id = parseParam(c, "id", IdParam);
    const userId = parseParam(c, "userId", IdParam);
    const me = c.get("user");
    const db = c.get("db");
    const leaving = userId === me.id;
    const { role } = await conversationFor(db, me.id, id, leaving ? "read" : "manage");
    if (leaving && role === "owner")
      throw new ApiError(
        400,
        "bad_request",
        "You own this conversation: you cannot leave it. Delete it (DELETE /api/conversations/:id) if you no longer want it.",
      );
    const gone = await (leaving ? leaveConversation : removeMember)(db, id, userId);
    if (!gone)
      throw new ApiError(404, "not_found", "That user is not a member of this conversation.");
    await tellConversation(c.env, id, userId, null, leaving);
    return c.body(null, 204);
  })
  .get("/:id/links", async (c) => {
    const id = parseParam(c, "id", IdParam);
    await conversationFor(c.get("db"), c.get("user").id, id, "manage");
    return c.json({ items: await listShareLinks(c.env, c.get("db"), c.req.url, id) });
  })
  .post("/:id/links", async (c) => {
    const id = parseParam(c, "id", IdParam);
    const body = await parseJsonBody(c, CreateShareLink);
    await conversationFor(c.get("db"), c.get("user").id, id, "manage");
    const link = await createShareLink(c.env, c.get("db"), c.req.url, id, body.expiresInDays);
    return c.json(link, 201);
  })
  .delete("/:id/links/:linkId", async (c) => {
    const id = parseParam(c, "id", IdParam);
    const linkId = parseParam(c, "linkId", IdParam);
    await conversationFor(c.get("db"), c.get("user").id, id, "manage");
    if (!(await revokeShareLink(c.get("db"), id, linkId))) throw notFound("Link");
    return c.body(null, 204);
  });

/** Mounted on /api/shared-with-me (behind requireUser). */
export const sharedWithMeRoutes = new Hono<AppEnv>().get("/", async (c) =>
  c.json({ items: await sharedWith(c.get("db"), c.get("user").id) }),
);

const UserQuery = z.object({ q: z.string().trim().min(1).max(100) }).strict();

/** Mounted on /api/users (behind requireUser): the people the Share dialog can pick. */
export const userDirectoryRoutes = new Hono<AppEnv>().get("/", validQuery(UserQuery), async (c) => {
  const { q } = c.req.valid("query");
  return c.json({ items: await searchUsers(c.get("db"), q, c.get("user").id) });
});

const TokenParam = z.string().min(1).max(2000);

/** The link a token names, if it still works (not revoked, not expired, its conversation kept). */
async function linkedSnapshot(c: Context<AppEnv>) {
  const db = c.get("db");
  const link = await liveShareLink(c.env, db, c.req.url, parseParam(c, "token", TokenParam));
  const gone = () =>
    new ApiError(
      404,
      "not_found",
      "This link does not work: it was revoked, it has expired, or it was copied incompletely. Ask the owner for a new one.",
    );
  if (!link) throw gone();
  const row = await getConversationRow(db, link.conversationId);
  if (!row) throw gone();
  return { link, row, cut: { conversationId: row.id, createdAt: link.createdAt } };
}

/** Mounted on /api/shared (public: the signed token is the credential). */
export const publicShareRoutes = new Hono<AppEnv>()
  .get("/:token", async (c) => {
    const db = c.get("db");
    const { link, row, cut } = await linkedSnapshot(c);
    const snapshot: SharedSnapshot = {
      title: row.title,
      owner: await userRef(db, row.userId),
      createdAt: row.createdAt,
      sharedAt: link.createdAt,
      expiresAt: link.expiresAt,
      // Anyone may read a link: like a viewer, they are not told what the owner spent.
      messages: (await listMessages(db, row.id, 0, SNAPSHOT_MESSAGES, link.upToSeq)).map(
        messageForViewer,
      ),
      artifacts: await snapshotArtifacts(db, cut),
    };
    c.header("cache-control", "private, no-store");
    return c.json(snapshot);
  })
  // An artifact the snapshot lists, as GET /api/artifacts/:id/download serves it to members.
  .get("/:token/artifacts/:artifactId/download", validQuery(DownloadQuery), async (c) => {
    const { cut } = await linkedSnapshot(c);
    const artifact = await snapshotArtifact(c.get("db"), cut, parseParam(c, "artifactId", IdParam));
    const { attachment, inline } = c.req.valid("query");
    const res = await downloadResponse(c.env.ARTIFACTS, artifact, attachment, inline);
    res.headers.set("cache-control", "private, no-store");
    return res;
  });
