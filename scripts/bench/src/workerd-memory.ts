// The runtime's memory as the benches read it: the workerd processes a `wrangler dev` started,
// found through Linux's /proc.
import { readdirSync, readFileSync } from "node:fs";

/** Every workerd process under `root` (its children, theirs, …), with its resident memory in KiB. */
export function workerdProcesses(root: number): Array<{ pid: number; rssKiB: number }> {
  const parent = new Map<number, number>();
  const names = new Map<number, string>();
  for (const entry of readdirSync("/proc")) {
    const pid = Number(entry);
    if (!pid) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const close = stat.lastIndexOf(")");
      names.set(pid, stat.slice(stat.indexOf("(") + 1, close));
      parent.set(pid, Number(stat.slice(close + 2).split(" ")[1]));
    } catch {
      // gone meanwhile
    }
  }
  const under = (pid: number): boolean => {
    for (let p = parent.get(pid); p; p = parent.get(p)) if (p === root) return true;
    return false;
  };
  const found: Array<{ pid: number; rssKiB: number }> = [];
  for (const [pid, name] of names) {
    if (!name.startsWith("workerd") || !under(pid)) continue;
    try {
      const status = readFileSync(`/proc/${pid}/status`, "utf8");
      found.push({ pid, rssKiB: Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) });
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** Resident memory (MiB) of every workerd under `root`; null when none runs there. */
export function workerdRssMiB(root: number | undefined): number | null {
  if (!root) return null;
  const found = workerdProcesses(root);
  return found.length === 0 ? null : found.reduce((s, p) => s + p.rssKiB, 0) / 1024;
}
