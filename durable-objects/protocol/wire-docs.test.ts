// workers/api/README.md, WebSocket frames, names every frame of the wire contract, so a client
// written from the README meets no frame it was not told about.
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { ClientFrame, ServerControl, ServerEvent } from "./wire";

const readme = readFileSync(new URL("../../workers/api/README.md", import.meta.url), "utf8");
const start = readme.indexOf("\n## WebSocket frames\n");
const section = readme.slice(start, readme.indexOf("\n## ", start + 1));

const typesOf = (union: { options: readonly { shape: { type: { value: unknown } } }[] }) =>
  union.options.map((option) => String(option.shape.type.value));

it("lists each client frame, control frame and event type", () => {
  expect(start).toBeGreaterThan(0);
  const all = [...typesOf(ClientFrame), ...typesOf(ServerControl), ...typesOf(ServerEvent)];
  expect(all.length).toBeGreaterThan(35);
  expect(all.filter((type) => !section.includes(`\`${type}\``))).toEqual([]);
});
