// Stands in for `zod` and `zod/v4` in the API worker's bundle (wrangler.toml `alias`): zod's own
// entry, less its 60 translations of error messages (`z.locales`, 260 KiB of script evaluated at
// every start-up). Nothing here uses them: English, the default, stays (zod's schemas import it
// themselves). `fromJSONSchema` is a stand-in (zod-classic.ts). zod.test.ts checks that every other
// export is here.
import * as z from "./zod-classic";
export * from "./zod-classic";
export { z, z as default };
