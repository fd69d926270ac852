import { mergeConfig } from "vitest/config";
import api, { PDF_TEST_FILES } from "../../workers/api/vitest.config";

// The api project's tests that extract a PDF's text with unpdf, in a workerd of their own. In the
// api project's shared runner, loading PDF.js (a 1.6 MB module) after dozens of other files broke
// the runner's sockets ("WebSocket protocol error 1009: Message is too large") and every file
// still running with them; alone, the same files pass. Same worker, bindings and fixtures.
const config = mergeConfig(api, { test: { name: "pdf-attachments" } });
config.test = { ...config.test, include: PDF_TEST_FILES, exclude: [] };
export default config;
