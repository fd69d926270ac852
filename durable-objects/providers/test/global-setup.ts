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
 * Not on every wire format: aimock's Gemini error frame has no `code`, without which
 * @google/genai skips it (the adapter sees the connection close), Gemini's headers are not sent
 * before the first frame (a failing first frame becomes HTTP 500), and aimock's Ollama chunks
 * never carry the finish reason (the fixture streams as a normal answer).
 */
const failsInStream = (message: string) => ({
  toJSON(): never {
    throw new Error(message);
  },
});

/** A value aimock writes as nothing: JSON.stringify leaves out a key whose toJSON is undefined. */
const leftOut = () => ({
  toJSON: (): undefined => undefined,
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
  // The stream ends cleanly, but its last frame says nothing of finishing (Gemini's carries no
  // finishReason): what a proxy that closes the connection politely mid-answer looks like.
  mock.onMessage(
    "case:no-finish",
    () => ({
      content: "An answer that never says it is finished",
      finishReason: leftOut() as unknown as string,
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
