// Validation messages read as one sentence each, however the schema worded its own message.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { api, createConversation, createUser, errorOf } from "../../../../tests/support/helpers";
import { validationError } from "./errors";

describe("validation messages", () => {
  it("end with exactly one period, whether or not the schema's message had one", () => {
    const withPeriod = z.string().refine(() => false, { message: "Send content or title." });
    const without = z.string().refine(() => false, { message: "Send content or title" });
    for (const schema of [withPeriod, without]) {
      const error = validationError("request body", schema.safeParse("x").error!.issues);
      expect(error.message).toBe("Invalid request body: (root): Send content or title.");
    }
  });

  it("says an empty PATCH once, with one period", async () => {
    const user = await createUser();
    const conversation = await createConversation(user);
    const res = await api(user, `/api/conversations/${conversation.id}`, {
      method: "PATCH",
      json: {},
    });
    expect(res.status).toBe(400);
    const { message } = await errorOf(res);
    expect(message).toBe(
      "Invalid request body: (root): Send at least one of title, provider, model, mode, settings.",
    );
  });
});
