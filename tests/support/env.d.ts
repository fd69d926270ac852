import type { D1Migration } from "cloudflare:test";
import type { OptionalSettings } from "../../shared/env";

// The workerd test projects see the API worker's env (generated: shared/worker-configuration.d.ts)
// plus its optional settings and what only tests bind.
declare global {
  namespace Cloudflare {
    interface Env extends OptionalSettings {
      // Only in tests: the migrations the setup file applies to each test's D1.
      TEST_MIGRATIONS?: D1Migration[];
    }
  }
}
