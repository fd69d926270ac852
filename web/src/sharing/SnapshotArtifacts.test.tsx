// A read-only link's page offers the snapshot's artifacts to open or download with its token.
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { Artifact } from "../../../durable-objects/protocol/rest";
import { SnapshotArtifacts } from "./SnapshotArtifacts";

const artifact: Artifact = {
  id: "a1",
  conversationId: "c1",
  messageId: null,
  type: "text/markdown",
  title: "Plan",
  language: null,
  contentType: null,
  size: null,
  pinned: false,
  position: 0,
  metadata: {},
  createdAt: 1,
  updatedAt: 1,
};

describe("a read-only link's artifacts", () => {
  it("links each artifact to open and download through the link's token", () => {
    const html = renderToStaticMarkup(<SnapshotArtifacts token="tok.sig" artifacts={[artifact]} />);
    expect(html).toContain("Plan");
    expect(html).toContain('href="/api/shared/tok.sig/artifacts/a1/download?inline=1"');
    expect(html).toContain('href="/api/shared/tok.sig/artifacts/a1/download?attachment=1"');
  });

  it("shows nothing when the snapshot has no artifacts", () => {
    expect(renderToStaticMarkup(<SnapshotArtifacts token="t" artifacts={[]} />)).toBe("");
  });
});
