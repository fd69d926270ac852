// CPU profiles of the workers under `wrangler dev`, taken through its inspector while some work
// runs, and what they say in a few lines: where the sampled time went, by kind (idle, the
// runtime's own code, the worker's script) and by function (readable when the script is not
// minified).
import { z } from "zod";
import { inspect, inspectorTargets } from "./js-heap";

const CallFrame = z.looseObject({
  scriptId: z.string(),
  functionName: z.string(),
  url: z.string(),
  lineNumber: z.number(),
});
const CpuProfile = z.looseObject({
  nodes: z.array(z.looseObject({ id: z.number(), callFrame: CallFrame })),
  samples: z.array(z.number()),
  timeDeltas: z.array(z.number()),
  startTime: z.number(),
  endTime: z.number(),
});
export type CpuProfile = z.infer<typeof CpuProfile>;
const Stopped = z.object({ result: z.object({ profile: CpuProfile }) });
const ScriptSource = z.object({ result: z.object({ scriptSource: z.string() }) });

/** A profile and, per script id, the package or folder each line of that script came from. */
export interface Profiled {
  profile: CpuProfile;
  lineOwners: Map<string, string[]>;
}

/**
 * Which package (or folder of ours) each line of a bundle belongs to, from the `// <path>`
 * comment esbuild writes before each module of an unminified bundle.
 */
function lineOwners(source: string): string[] {
  const owners: string[] = [];
  let current = "(bundle)";
  for (const line of source.split("\n")) {
    const marker = /^\/\/ ((?:\.\.\/)*[\w@.-][\w@./-]*\.[cm]?[jt]sx?)$/.exec(line);
    if (marker?.[1]) {
      const path = marker[1].replace(/^(\.\.\/)+/, "");
      const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
      current = pkg?.[1] ?? path.split("/").slice(0, -1).join("/");
    }
    owners.push(current);
  }
  return owners;
}

type Target = Awaited<ReturnType<typeof inspectorTargets>>[number];

async function profileTargets(
  targets: Target[],
  work: () => Promise<void>,
  index = 1,
): Promise<Map<string, Profiled>> {
  const [first, ...rest] = targets;
  if (!first) {
    await work();
    return new Map<string, Profiled>();
  }
  return inspect(first.webSocketDebuggerUrl, async (send) => {
    await send("Profiler.enable");
    await send("Profiler.setSamplingInterval", { interval: 250 });
    await send("Profiler.start");
    const profiles = await profileTargets(rest, work, index + 1);
    const profile = Stopped.parse(await send("Profiler.stop")).result.profile;
    // The bundles' sources, to name the package of each sample (after the profile: the debugger
    // slows what it watches).
    const owners = new Map<string, string[]>();
    await send("Debugger.enable");
    for (const { callFrame } of profile.nodes) {
      if (owners.has(callFrame.scriptId) || !callFrame.url.endsWith(".js")) continue;
      const reply = ScriptSource.safeParse(
        await send("Debugger.getScriptSource", { scriptId: callFrame.scriptId }),
      );
      owners.set(
        callFrame.scriptId,
        reply.success ? lineOwners(reply.data.result.scriptSource) : [],
      );
    }
    await send("Debugger.disable");
    // Workers may share a title ("Cloudflare Worker"): number them in the inspector's order.
    profiles.set(`${first.title} #${index}`, { profile, lineOwners: owners });
    return profiles;
  });
}

/** Profiles every worker the inspector at `port` lists while `work` runs, keyed by title. */
export async function profileWhile(
  port: number,
  work: () => Promise<void>,
): Promise<Map<string, Profiled>> {
  return profileTargets(await inspectorTargets(port), work);
}

/** What kind of code a frame is: the script, the runtime's internals, or V8's own buckets. */
function kindOf(frame: z.infer<typeof CallFrame>): string {
  if (!frame.url) return frame.functionName.startsWith("(") ? frame.functionName : "(built-ins)";
  const internal = /^(cloudflare-internal|node-internal|node):([\w-]+)/.exec(frame.url);
  if (internal) return `runtime ${internal[1]}:${internal[2]}`;
  return `script ${frame.url}`;
}

/** Self time by kind, by package and by function, the largest first, as printable lines. */
export function summarise({ profile, lineOwners: owners }: Profiled, top = 20): string[] {
  const byNode = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  const selfByFunction = new Map<string, number>();
  const selfByKind = new Map<string, number>();
  const selfByPackage = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const frame = byNode.get(id);
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    if (!frame) return;
    total += ms;
    const pkg = owners.get(frame.scriptId)?.[frame.lineNumber];
    const name = frame.functionName || "(anonymous)";
    const where = frame.url ? ` ${frame.url}:${frame.lineNumber + 1}` : "";
    const fn = `${name}${where}${pkg ? ` [${pkg}]` : ""}`;
    selfByFunction.set(fn, (selfByFunction.get(fn) ?? 0) + ms);
    const kind = kindOf(frame);
    selfByKind.set(kind, (selfByKind.get(kind) ?? 0) + ms);
    if (pkg) selfByPackage.set(pkg, (selfByPackage.get(pkg) ?? 0) + ms);
  });
  const rank = (m: Map<string, number>, n: number) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(
        ([k, ms]) =>
          `    ${ms.toFixed(1).padStart(8)} ms  ${(100 * (ms / total)).toFixed(1).padStart(5)} %  ${k}`,
      );
  return [
    `  sampled ${total.toFixed(0)} ms`,
    "  by kind (self time):",
    ...rank(selfByKind, 8),
    "  script time by package or folder (self time):",
    ...rank(selfByPackage, top),
    "  by function (self time):",
    ...rank(selfByFunction, top),
  ];
}
