import { describe, expect, it } from "vitest";
import { checkContent, ElicitationSchema } from "./elicitation";
import { applyEvent, emptyTranscript } from "./transcript";
import type { NewServerEvent, ServerEvent } from "./wire";

const schema = ElicitationSchema.parse({
  type: "object",
  required: ["name", "hero"],
  properties: {
    name: { type: "string", title: "Name", minLength: 2 },
    email: { type: "string", title: "Email", format: "email" },
    born: { type: "string", title: "Born", format: "date" },
    at: { type: "string", title: "At", format: "date-time" },
    age: { type: "integer", title: "Age", minimum: 1, maximum: 120 },
    agree: { type: "boolean", title: "Agree" },
    hero: { type: "string", title: "Hero", oneOf: [{ const: "h1", title: "Superman" }] },
    pet: { type: "string", enum: ["cat", "dog"], enumNames: ["Cats", "Dogs"] },
    fish: {
      type: "array",
      title: "Fish",
      maxItems: 1,
      items: { type: "string", enum: ["tuna", "trout"] },
    },
  },
});

describe("checking an answer against the requested form", () => {
  it("takes values that fit, of the right types", () => {
    const content = {
      name: "Ada",
      email: "ada@example.com",
      born: "1815-12-10",
      at: "2030-01-01T10:00:00.000Z",
      age: 36,
      agree: true,
      hero: "h1",
      pet: "dog",
      fish: ["tuna"],
    };
    expect(checkContent(schema, content)).toEqual({ ok: true, content });
  });

  it("names each field that does not fit by its title, and refuses fields the form did not ask", () => {
    const result = checkContent(schema, {
      name: "A",
      email: "nope",
      born: "10/12/1815",
      age: 1.5,
      agree: "yes",
      pet: "parrot",
      fish: ["tuna", "trout"],
      extra: 1,
    });
    expect(result.ok).toBe(false);
    const problems = result.ok ? [] : result.problems;
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^Name: .*2/),
        "Email: Enter an email address.",
        "Born: Enter a date (YYYY-MM-DD).",
        expect.stringMatching(/^Age: .*int/),
        expect.stringMatching(/^Agree: .*boolean/),
        "Hero: required",
        expect.stringMatching(/^pet: .*"cat"\|"dog"/),
        expect.stringMatching(/^Fish: .*1/),
        "unknown field(s): extra",
      ]),
    );
  });

  it("refuses a schema MCP does not allow (nested objects)", () => {
    expect(
      ElicitationSchema.safeParse({
        type: "object",
        properties: { address: { type: "object", properties: {} } },
      }).success,
    ).toBe(false);
  });
});

describe("elicitations in the timeline", () => {
  it("a question shows under its answer and records how it was answered", () => {
    const events: NewServerEvent[] = [
      {
        type: "turn_started",
        turnId: "t1",
        messageId: "a1",
        order: 2,
        userMessageId: "u1",
        provider: "anthropic",
        model: "m",
      },
      {
        type: "elicitation_requested",
        turnId: "t1",
        messageId: "a1",
        elicitationId: "e1",
        callId: "c1",
        server: "everything",
        tool: "ask",
        mode: "url",
        message: "Sign in",
        url: "https://example.com/",
        expiresAt: 99,
      },
      {
        type: "elicitation_answered",
        turnId: "t1",
        messageId: "a1",
        elicitationId: "e1",
        callId: "c1",
        action: "decline",
        by: { via: "rest", userId: "u" },
      },
    ];
    const t = events
      .map((e, i) => ({ ...e, seq: i + 1, at: 7 }) as ServerEvent)
      .reduce(applyEvent, emptyTranscript());
    expect(t.messages[0]?.activity?.elicitations?.e1).toEqual({
      elicitationId: "e1",
      callId: "c1",
      server: "everything",
      tool: "ask",
      mode: "url",
      message: "Sign in",
      url: "https://example.com/",
      expiresAt: 99,
      // Who answered, so the card can name them in a shared conversation.
      answered: { action: "decline", via: "rest", userId: "u", at: 7 },
    });
  });
});
