// Set before every web test file: the jsdom tests render through React's act(), which warns
// ("not configured to support act") unless the environment says it is a test using it.
import { afterEach } from "vitest";
import { unmountPages } from "./test-page";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

// What a test rendered with mountInPage (test-page.ts) goes when it ends.
afterEach(unmountPages);
