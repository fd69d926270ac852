// The official `openai` SDK pointed at this app's /v1 inside the test worker, as a user's code
// would hold it. Retries are off unless a test asks for the SDK's own (`maxRetries` left out).
import { exports } from "cloudflare:workers";
import OpenAI from "openai";
import type { TestUser } from "./helpers";

export function openAiClient(user: TestUser, options: { sdkRetries?: boolean } = {}): OpenAI {
  return new OpenAI({
    apiKey: user.token,
    baseURL: "https://app.test/v1",
    ...(!options.sdkRetries && { maxRetries: 0 }),
    fetch: (input, init) => exports.default.fetch(new Request(input, init)),
  });
}
