// Request bodies are described from their zod schemas when the OpenAPI document is asked for,
// not while the worker starts (the operation table is built at start-up).
import { expect, it } from "vitest";
import { z } from "zod";
import { body } from "./schema-helpers";

it("converts a request body's schema to JSON Schema on first read, once", () => {
  let conversions = 0;
  const name = z.string();
  name._zod.toJSONSchema = () => {
    conversions++;
    return { type: "string", description: "counted" };
  };
  const requestBody = body(z.object({ name }));
  expect(conversions).toBe(0);

  const media = (requestBody as { content: Record<string, { schema: unknown }> }).content[
    "application/json"
  ]!;
  expect(media.schema).toMatchObject({
    type: "object",
    properties: { name: { type: "string", description: "counted" } },
    required: ["name"],
  });
  expect(media.schema).toBe(media.schema);
  expect(conversions).toBe(1);
});
