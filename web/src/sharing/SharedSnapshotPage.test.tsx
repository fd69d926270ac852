// A read-only link's page names each artifact and attached file as the snapshot gives it now:
// one deleted since says so.
import { renderToStaticMarkup } from "react-dom/server";
import { expect, it } from "vitest";
import type { MessagePart } from "../../../durable-objects/protocol/messages";
import { SnapshotPart } from "./SharedSnapshotPage";

const shown = (part: MessagePart) =>
  renderToStaticMarkup(<SnapshotPart part={part} role="assistant" />);

it("names an artifact and a file, and marks one deleted since", () => {
  const chart: MessagePart = {
    type: "artifact",
    artifactId: "x1",
    artifactType: "image/png",
    title: "Chart",
  };
  expect(shown(chart)).toContain("Artifact: Chart</p>");
  expect(shown({ ...chart, deleted: true })).toContain("Artifact: Chart (deleted)</p>");
  const file: MessagePart = {
    type: "attachment",
    artifactId: "f1",
    name: "tides.csv",
    contentType: "text/csv",
    size: 3,
    kind: "table",
  };
  expect(shown(file)).toContain("Attached: tides.csv</p>");
  expect(shown({ ...file, deleted: true })).toContain("Attached: tides.csv (deleted)</p>");
});
