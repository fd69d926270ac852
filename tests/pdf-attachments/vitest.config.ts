import { defineProject } from "vitest/config";
import { apiTest, apiWorkerPlugin, PDF_TEST_FILES } from "../../workers/api/vitest.config.ts";
import { buildPdfTextWorker } from "../support/pdf-text-worker.ts";

const root = new URL("../..", import.meta.url).pathname;

// The api project's tests that extract a PDF's text: the API worker as in the api project, with
// workers/pdf-text (built from its source) running beside it behind the PDF_TEXT binding, as it
// does under `wrangler dev` and when deployed. They have a workerd of their own: PDF.js (a 1.6 MB
// module) loaded in the api project's shared runner broke its sockets ("WebSocket protocol
// error 1009: Message is too large") for every file still running with it.
export default defineProject({
  root,
  plugins: [apiWorkerPlugin(await buildPdfTextWorker())],
  test: { ...apiTest, name: "pdf-attachments", include: PDF_TEST_FILES, exclude: [] },
});
