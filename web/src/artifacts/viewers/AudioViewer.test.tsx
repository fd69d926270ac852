// An audio artifact a tool made: a player, fed only from our own download route, never from
// anything the tool said.
import { renderToStaticMarkup } from "react-dom/server";
import { expect, it } from "vitest";
import { typeLabel } from "../artifact-kind";
import { artifact } from "../test-artifact";
import { viewerFor } from "./viewer-for";

const audio = artifact({
  id: "au/1",
  type: "audio/wav",
  contentType: "audio/wav",
  title: "Audio from tts",
  content: null,
  metadata: { url: "https://evil.example/x.wav" },
});

it("plays an audio artifact from our own download route", () => {
  const Viewer = viewerFor(audio.type);
  const html = renderToStaticMarkup(<Viewer artifact={audio} onSaved={() => undefined} />);
  expect(html).toMatch(/<audio[^>]* controls=""/);
  expect(html).toContain('src="/api/artifacts/au%2F1/download"');
  expect(html).not.toContain("evil.example");
  expect(html).not.toContain("cannot be shown here");
});

it("lists as audio", () => {
  expect(typeLabel("audio/mpeg")).toBe("Audio");
});
