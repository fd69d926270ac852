// Side by side with Cloudflare's agents-starter (issue 14): both apps under `wrangler dev` with
// one aimock at zero latency, interleaved; prints ours and the peer's p50/p99 and ours / peer.
// Needs a checkout of the peer in PEER_DIR (see README.md, "Tests and benchmarks"):
//   git clone https://github.com/cloudflare/agents-starter /tmp/agents-starter
//   (cd /tmp/agents-starter && npm install)
//   PEER_DIR=/tmp/agents-starter npm run bench -- peer
// Runs src/peer-bench.ts with tsx so it can use the e2e stack as it is.
import { runTsx } from "./src/run-tsx.mjs";

runTsx("peer-bench.ts");
