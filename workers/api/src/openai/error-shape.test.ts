// /v1 errors as the official `openai` SDK reads them: OpenAI's `type` and `param` beside our
// `code` and `message`, so code written for OpenAI can tell a bad field from a bad key.
import OpenAI from "openai";
import { expect, it } from "vitest";
import { createUser } from "../../../../tests/support/helpers";
import { openAiClient } from "../../../../tests/support/openai-client";

/** The error a call fails with (a call that succeeds fails the test). */
const caught = (p: Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> =>
  p.then(
    () => {
      throw new Error("expected the call to fail");
    },
    (e: unknown) => e as InstanceType<typeof OpenAI.APIError>,
  );

it("gives each /v1 error OpenAI's type, and the field at fault as param", async () => {
  const user = await createUser();
  const client = openAiClient(user);

  const invalid = await caught(
    client.chat.completions.create({ model: "thinking-chat", messages: [] }),
  );
  expect(invalid).toBeInstanceOf(OpenAI.BadRequestError);
  expect(invalid).toMatchObject({
    status: 400,
    type: "invalid_request_error",
    code: "validation_failed",
  });
  expect(invalid.param).toEqual(expect.any(String));
  expect(invalid.message).toContain(invalid.param!);

  const unknown = await caught(client.models.retrieve("gpt-nope"));
  expect(unknown).toMatchObject({ status: 404, type: "not_found_error", param: null });

  const stranger = openAiClient({ id: "nobody", token: "tc_not_a_token" });
  const refused = await caught(stranger.models.list());
  expect(refused).toBeInstanceOf(OpenAI.AuthenticationError);
  expect(refused).toMatchObject({ status: 401, type: "authentication_error" });
});
