// main.tsx's first import, so the first screen's requests start before the rest of the script is
// evaluated (see first-requests.ts). A read-only link's page asks for none of them.
import { browserStore } from "./browser-store";
import { startFirstRequests } from "./first-requests";
import { sessionStart } from "./session-start";
import { sharedTokenOf } from "./sharing/shared-token";

if (!sharedTokenOf(location.pathname))
  startFirstRequests(sessionStart(location.hash, browserStore()));
