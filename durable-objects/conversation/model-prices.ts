// The price table a turn uses: built in, with the operator's MODEL_PRICES over it. A malformed
// MODEL_PRICES is reported in the logs once per object and ignored (see loop/prices.ts).
import type { Env } from "../../shared/env";
import { type PriceTable, priceTable } from "../loop/prices";

let cached: { configured: string | undefined; table: PriceTable } | null = null;

export function modelPrices(env: Pick<Env, "MODEL_PRICES">): PriceTable {
  if (cached && cached.configured === env.MODEL_PRICES) return cached.table;
  const { table, error } = priceTable(env.MODEL_PRICES);
  if (error) console.error(JSON.stringify({ level: "error", event: "config", message: error }));
  cached = { configured: env.MODEL_PRICES, table };
  return table;
}
