// What a user gets from results that are more than text, from server-everything over
// streamable HTTP: embedded resources (text, a text file sent as a blob, a binary file),
// resource links, and an image beside annotated text.
import { describe, expect, inject, it } from "vitest";
import {
  createUserWithEverything,
  storedArtifact,
  type TestUser,
} from "../../tests/support/helpers";
import { turnInNewConversation } from "../../tests/support/ws-client";
import type { ServerEvent } from "../protocol/wire";

const settings = {
  settings: {
    blockedServers: ["mcp-remote"],
    // It compresses what it is given; as a server we added, its unset hints would ask first.
    toolPolicies: { everything: { tools: { "gzip-file-as-resource": "allow" } } },
  },
};

interface StoredArtifact {
  type: string;
  title: string;
  content: string | null;
  contentType: string | null;
  size: number | null;
  metadata: Record<string, unknown>;
}

/** One question's turn, with the artifacts it made as the API returns them. */
async function ask(user: TestUser, what: string) {
  const events = await turnInNewConversation(user, `everything content ${what} please`, settings);
  const artifacts: StoredArtifact[] = [];
  for (const e of events)
    if (e.type === "artifact_created")
      artifacts.push((await (await storedArtifact(user, e.artifact.id)).json()) as StoredArtifact);
  const result = events.find(
    (e): e is Extract<ServerEvent, { type: "tool_result" }> => e.type === "tool_result",
  );
  return { events, artifacts, result };
}

/** The model's requests that name `marker`, from aimock's request journal. */
async function sentToModel(marker: string): Promise<string[]> {
  const journal = (await (
    await fetch(`${inject("aimockUrl")}/__aimock/journal?limit=1000`)
  ).json()) as unknown;
  const entries = Array.isArray(journal)
    ? journal
    : ((journal as { entries?: unknown[] }).entries ?? []);
  return entries.map((e) => JSON.stringify(e)).filter((e) => e.includes(marker));
}

describe("results that are more than text", () => {
  it("an embedded text resource: the model reads it, the user gets it as a text artifact", async () => {
    const user = await createUserWithEverything();
    const { artifacts, result } = await ask(user, "text resource");
    expect(result?.isError).toBe(false);
    expect(artifacts).toMatchObject([
      {
        type: "text/plain",
        // Not "1": the address's last segment alone says nothing.
        title: "text/1",
        content: expect.stringMatching(/^Resource 1: This is a plaintext resource/),
        metadata: { uri: "demo://resource/dynamic/text/1" },
      },
    ]);
  });

  it("a text file sent as a blob is still text: the model reads it and the user sees it", async () => {
    const user = await createUserWithEverything();
    const { artifacts, result } = await ask(user, "blob resource");
    expect(result?.isError).toBe(false);
    expect(artifacts).toMatchObject([
      {
        type: "text/plain",
        content: expect.stringMatching(/^Resource 2: This is a base64 blob created at /),
        metadata: { uri: "demo://resource/dynamic/blob/2" },
      },
    ]);
    expect((await sentToModel("Resource 2: This is a base64 blob")).length).toBeGreaterThan(0);
  });

  it("a binary file (gzip) is kept whole for download, and the model is told it exists", async () => {
    const user = await createUserWithEverything();
    const { artifacts, result } = await ask(user, "gzip");
    expect(result?.summary).toBe(
      "[binary resource demo://resource/session/hello.txt.gz (application/gzip), shown to the user as an artifact] (1 artifact)",
    );
    expect(artifacts).toMatchObject([
      { type: "application/gzip", title: "hello.txt.gz", content: null },
    ]);
    expect(artifacts[0]?.size).toBeGreaterThan(20);
  });

  it("resource links become one link artifact each, and the model gets their addresses", async () => {
    const user = await createUserWithEverything();
    const { artifacts, result } = await ask(user, "links");
    expect(result?.summary).toMatch(/\(2 artifacts\)$/);
    expect(artifacts.map((a) => [a.title, a.metadata.uri])).toEqual([
      ["Link: Blob Resource 1", "demo://resource/dynamic/blob/1"],
      ["Link: Text Resource 2", "demo://resource/dynamic/text/2"],
    ]);
    const sent = await sentToModel(
      "Resource link: Text Resource 2 <demo://resource/dynamic/text/2>",
    );
    expect(sent.length).toBeGreaterThan(0);
  });

  it("an image beside annotated text: the text reaches the model, the image is an artifact", async () => {
    const user = await createUserWithEverything();
    const { artifacts, result } = await ask(user, "annotated");
    expect(result).toMatchObject({
      isError: false,
      summary: "Operation completed successfully (1 artifact)",
    });
    expect(artifacts).toMatchObject([
      { type: "image/png", title: "Image from get-annotated-message", contentType: "image/png" },
    ]);
  });
});
