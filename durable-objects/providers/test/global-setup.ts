// aimock on 127.0.0.1, speaking the real wire protocols of Anthropic, OpenAI, Gemini (v1beta) and
// Ollama from the fixture files in ./fixtures (a marker such as `case:text` in the last user
// message picks the fixture). Runs in Node; the tests in workerd get its URL through `inject`.
import { fileURLToPath } from "node:url";
import { LLMock } from "@copilotkit/aimock";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    providerMockUrl: string;
  }
}

/**
 * A value aimock cannot serialise. aimock writes a stream's frames one by one; when writing one
 * throws after the HTTP 200 went out, it sends the provider's own in-stream error frame (`event:
 * error` for Anthropic, a `data: {"error": …}` chunk for OpenAI and Gemini) and closes the
 * connection. Used as the finish reason, which only the last frame carries, it turns a fixture
 * into "text, then an error inside the stream". JSON fixture files cannot hold it, hence code.
 */
const failsInStream = (message: string) => ({
  toJSON(): never {
    throw new Error(message);
  },
});

export async function startProviderMock(): Promise<LLMock> {
  const mock = new LLMock({ host: "127.0.0.1", port: 0, logLevel: "silent" });
  mock.loadFixtureDir(fileURLToPath(new URL("./fixtures/", import.meta.url)));
  // Built per request (a factory), so aimock's journal, which keeps the fixture, stays readable.
  mock.onMessage(
    "case:stream-error-late",
    () => ({
      content: "A partial answer that the provider abandons",
      finishReason: failsInStream("Overloaded") as unknown as string,
    }),
    { chunkSize: 8, latency: 5 },
  );
  mock.onMessage(
    "case:stream-error-early",
    () => ({
      content: "",
      finishReason: failsInStream("Internal server error") as unknown as string,
    }),
    { chunkSize: 8 },
  );
  await mock.start();
  return mock;
}

export default async function setup(project: TestProject) {
  const mock = await startProviderMock();
  project.provide("providerMockUrl", mock.url);
  return () => mock.stop();
}
