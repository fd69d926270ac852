// Runs a server's connection test (which lists its tools) on request, keeping the last result.
import { useState } from "react";
import type { McpServerTest } from "../../../durable-objects/protocol/rest";
import { ApiFailure } from "../api";

export function useServerTest(test: () => Promise<McpServerTest>) {
  const [result, setResult] = useState<McpServerTest | null>(null);
  const [testing, setTesting] = useState(false);
  const run = async () => {
    setTesting(true);
    try {
      setResult(await test());
    } catch (err) {
      const message = err instanceof ApiFailure ? err.message : "The test could not be run.";
      setResult({ ok: false, error: { code: "unreachable", message } });
    } finally {
      setTesting(false);
    }
  };
  return { result, testing, run };
}
