import type { D1Migration } from "cloudflare:test";
import type { Env as ApiEnv } from "../../shared/env";

declare global {
  namespace Cloudflare {
    interface GlobalProps {
      mainModule: typeof import("../../workers/api/src/index");
      durableNamespaces: "Conversation" | "RateLimitCounter";
    }
    interface Env extends ApiEnv {
      // Only in tests: the migrations the setup file applies to each test's D1.
      TEST_MIGRATIONS?: D1Migration[];
    }
  }
}
