// A message to a provider this deployment has no key for fails at once, and the failure names
// the setting to add: the first thing a new user meets after `npm start` without keys.
import { beforeAll, expect, it } from "vitest";
import { createUser, type TestUser } from "../../tests/support/helpers";
import { fold, turnInNewConversation } from "../../tests/support/ws-client";

let user: TestUser;
beforeAll(async () => {
  user = await createUser();
});

it("names GEMINI_API_KEY, where to set it, and the other way out", async () => {
  // The test deployment has no Gemini key.
  const events = await turnInNewConversation(user, "Hello!", {
    provider: "gemini",
    model: "gemini-3.5-flash",
  });
  const failed = events.find((e) => e.type === "turn_failed");
  expect(failed).toMatchObject({ error: { code: "not_configured" } });
  const message = failed?.type === "turn_failed" ? failed.error.message : "";
  expect(message).toContain("set GEMINI_API_KEY in .dev.vars");
  expect(message).toContain("wrangler secret put GEMINI_API_KEY");
  expect(message).toContain("pick another provider");
  expect(fold(events).messages[1]?.status).toBe("failed");
});
