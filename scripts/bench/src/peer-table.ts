// Samples of `npm run bench -- peer` per figure and app, printed as one table: ours p50/p99, the
// peer's p50/p99 and ours / peer at p50 (below 1: ours is faster or smaller).
import { pct } from "./e2e-session";

export type AppName = "ours" | "peer";

interface Row {
  figure: string;
  unit: string;
  /** Single-valued figures (sizes) and medians print one number, not p50/p99. */
  single: boolean;
  samples: Record<AppName, number[]>;
  notes: string[];
}

export class FigureTable {
  private rows = new Map<string, Row>();

  /** How the two columns are headed (the A/B bench compares two commits of ours). */
  constructor(private readonly labels: Record<AppName, string> = { ours: "ours", peer: "peer" }) {}

  private row(figure: string, unit = "ms", single = false): Row {
    let row = this.rows.get(figure);
    if (!row) {
      row = { figure, unit, single, samples: { ours: [], peer: [] }, notes: [] };
      this.rows.set(figure, row);
    }
    return row;
  }

  add(figure: string, app: AppName, value: number): void {
    this.row(figure).samples[app].push(value);
  }

  /** A figure with one value per app (a size, a median already taken). */
  set(figure: string, unit: string, ours: number, peer: number): void {
    const row = this.row(figure, unit, true);
    row.samples = { ours: [ours], peer: [peer] };
  }

  note(figure: string, text: string): void {
    this.row(figure).notes.push(text);
  }

  print(): void {
    const cell = (row: Row, app: AppName, p: number) => {
      const xs = row.samples[app];
      return xs.length === 0 || xs.some(Number.isNaN)
        ? "—"
        : `${pct(xs, p).toFixed(row.unit === "KiB" ? 0 : 1)}`;
    };
    const { ours: a, peer: b } = this.labels;
    const lines = [
      `| figure | ${a} p50 | ${a} p99 | ${b} p50 | ${b} p99 | ${a} / ${b} (p50) | n (${a}, ${b}) |`,
      "| --- | --- | --- | --- | --- | --- | --- |",
    ];
    const notes: string[] = [];
    for (const row of this.rows.values()) {
      const ours = row.samples.ours;
      const peer = row.samples.peer;
      const ratio =
        ours.length && peer.length && pct(peer, 50) > 0 && !Number.isNaN(pct(ours, 50))
          ? (pct(ours, 50) / pct(peer, 50)).toFixed(2)
          : "—";
      const p99 = (app: AppName) => (row.single ? "" : cell(row, app, 99));
      lines.push(
        `| ${row.figure} (${row.unit}) | ${cell(row, "ours", 50)} | ${p99("ours")} | ${cell(row, "peer", 50)} | ${p99("peer")} | ${ratio} | ${ours.length}, ${peer.length} |`,
      );
      for (const n of row.notes) notes.push(`- ${row.figure}: ${n}`);
    }
    console.log(`\n${lines.join("\n")}`);
    if (notes.length) console.log(`\n${notes.join("\n")}`);
  }
}
