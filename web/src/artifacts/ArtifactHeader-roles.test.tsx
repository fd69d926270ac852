// A member of a shared conversation (participant or viewer) is not offered pin or delete, which
// the API would refuse, and is told why; the owner keeps them.
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ArtifactEditingAllowed } from "./artifact-editing";
import { ArtifactHeader } from "./ArtifactHeader";
import { artifact } from "./test-artifact";
import { CodeViewer } from "./viewers/CodeViewer";

const noop = () => undefined;
const render = (canManage: boolean) =>
  renderToStaticMarkup(
    <ArtifactHeader
      artifact={artifact({ id: "a1", pinned: false })}
      onBack={noop}
      onChanged={noop}
      onDeleted={noop}
      canManage={canManage}
    />,
  );

describe("the artifact header for each role", () => {
  it("offers a member download only, with the reason pin and delete are missing", () => {
    const html = render(false);
    expect(html).not.toMatch(/>Pin<\/button>/);
    expect(html).not.toMatch(/>Delete<\/button>/);
    expect(html).toContain(">Download</a>");
    expect(html).toContain(
      "Only the owner of this conversation can pin, edit or delete its artifacts",
    );
  });

  it("offers the owner pin, download and delete", () => {
    const html = render(true);
    expect(html).toMatch(/>Pin<\/button>/);
    expect(html).toMatch(/>Delete<\/button>/);
    expect(html).toContain(">Download</a>");
    expect(html).not.toContain("Only the owner");
  });
});

describe("editing an artifact for each role", () => {
  const code = artifact({ type: "application/vnd.ant.code", language: "python", content: "x=1" });
  const viewer = (allowed: boolean) =>
    renderToStaticMarkup(
      <ArtifactEditingAllowed.Provider value={allowed}>
        <CodeViewer artifact={code} onSaved={noop} />
      </ArtifactEditingAllowed.Provider>,
    );
  it("offers Edit to the owner only; a member still reads the content", () => {
    expect(viewer(true)).toContain(">Edit</button>");
    expect(viewer(false)).not.toContain(">Edit</button>");
    expect(viewer(false)).toContain("x=1");
  });
});
