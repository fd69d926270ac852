import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { artifact } from "./test-artifact";
import { ArtifactHeader } from "./ArtifactHeader";
import { ArtifactList, sortArtifacts } from "./ArtifactList";
import { ArtifactPane } from "./ArtifactPane";
import { ImageViewer } from "./viewers/ImageViewer";
import { JsonViewer } from "./viewers/JsonViewer";
import { TextViewer } from "./viewers/TextViewer";
import { viewerFor } from "./viewers/viewer-for";
import { CodeViewer } from "./viewers/CodeViewer";

const noop = () => undefined;

describe("the artifact list", () => {
  it("puts pinned artifacts first and marks them", () => {
    const items = [
      artifact({ id: "a", title: "First", position: 0 }),
      artifact({ id: "b", title: "Second", position: 1, pinned: true }),
    ];
    expect(sortArtifacts(items).map((a) => a.id)).toEqual(["b", "a"]);
    const html = renderToStaticMarkup(<ArtifactList items={items} onOpen={noop} />);
    expect(html.indexOf("Second")).toBeLessThan(html.indexOf("First"));
    expect(html).toContain("Pinned · </span>");
  });

  it("shows titles as text, never markup", () => {
    const html = renderToStaticMarkup(
      <ArtifactList items={[artifact({ title: "<img src=x onerror=alert(1)>" })]} onOpen={noop} />,
    );
    expect(html).not.toContain("<img");
    expect(html).toContain("&lt;img");
  });

  it("lives in an aside named Artifacts", () => {
    const html = renderToStaticMarkup(
      <ArtifactPane conversationId="c1" openId={null} onOpen={noop} refreshKey={0} />,
    );
    expect(html).toMatch(/^<aside class="artifact-pane" aria-label="Artifacts">/);
    expect(html).toContain("Loading artifacts");
  });
});

describe("the open artifact's header", () => {
  const render = (pinned: boolean) =>
    renderToStaticMarkup(
      <ArtifactHeader
        artifact={artifact({ id: "x/1", pinned })}
        onBack={noop}
        onChanged={noop}
        onDeleted={noop}
      />,
    );
  it("has a Pin toggle that says whether it is pressed", () => {
    expect(render(false)).toContain('aria-pressed="false"');
    expect(render(false)).toMatch(/>Pin<\/button>/);
    expect(render(true)).toContain('aria-pressed="true"');
    expect(render(true)).toMatch(/>Pinned<\/button>/);
  });
  it("downloads as an attachment from our own origin", () => {
    expect(render(false)).toContain(
      'href="/api/artifacts/x%2F1/download?attachment=1" download=""',
    );
  });
});

describe("text viewers", () => {
  it("show plain text in a pre, as text", () => {
    const html = renderToStaticMarkup(
      <TextViewer artifact={artifact({ content: "<script>x</script>" })} onSaved={noop} />,
    );
    expect(html).toContain("<pre");
    expect(html).toContain("&lt;script&gt;");
  });
  it("say when an artifact is a file they cannot show", () => {
    const html = renderToStaticMarkup(
      <TextViewer
        artifact={artifact({ content: null, contentType: "application/pdf" })}
        onSaved={noop}
      />,
    );
    expect(html).toContain("cannot be");
  });
  it("offer code an Edit button and a download with its extension", () => {
    const html = renderToStaticMarkup(
      <CodeViewer
        artifact={artifact({
          type: "application/vnd.ant.code",
          language: "python",
          content: "print(1)",
        })}
        onSaved={noop}
      />,
    );
    expect(html).toContain(">Edit</button>");
    expect(html).toContain("Save as .py");
    expect(html).toContain("print(1)");
  });
  it("are picked by type", () => {
    expect(viewerFor("application/vnd.ant.code")).toBe(CodeViewer);
    expect(viewerFor("application/json")).toBe(JsonViewer);
    expect(viewerFor("text/csv")).toBe(TextViewer);
  });
});

describe("the JSON viewer", () => {
  it("shows a tree with values coloured by type", () => {
    const html = renderToStaticMarkup(
      <JsonViewer
        artifact={artifact({
          type: "application/json",
          content: JSON.stringify({ name: "<b>x</b>", n: 3, ok: true, none: null, list: [1, 2] }),
        })}
        onSaved={noop}
      />,
    );
    expect(html).toContain('class="json-tree"');
    expect(html).toContain("<details");
    expect(html).toContain('<span class="json-string">&quot;&lt;b&gt;x&lt;/b&gt;&quot;</span>');
    expect(html).toContain('<span class="json-number">3</span>');
    expect(html).toContain('<span class="json-boolean">true</span>');
    expect(html).toContain('<span class="json-null">null</span>');
    expect(html).toContain("[2 items]");
  });
  it("falls back to text for invalid JSON", () => {
    const html = renderToStaticMarkup(
      <JsonViewer
        artifact={artifact({ type: "application/json", content: "{nope" })}
        onSaved={noop}
      />,
    );
    expect(html).toContain("not valid JSON");
    expect(html).toContain("<pre");
    expect(html).toContain("{nope");
  });
});

describe("the image viewer", () => {
  it("loads the image from our own download route, named by its title", () => {
    const html = renderToStaticMarkup(
      <ImageViewer
        artifact={artifact({ id: "img1", type: "image/png", title: "A plot", content: null })}
        onSaved={noop}
      />,
    );
    expect(html).toContain('<img src="/api/artifacts/img1/download" alt="A plot"');
    expect(html).toContain('aria-label="Zoom in"');
    expect(html).toContain('aria-label="Zoom out"');
    expect(html).toContain(">Fit</button>");
  });
});
