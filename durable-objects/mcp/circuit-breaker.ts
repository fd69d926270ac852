// A server that keeps failing is skipped for a cool-down, then tried once more (half-open).
// The state is plain data so the Conversation DO can keep it across restarts.
export interface BreakerState {
  failures: number;
  openedAt: number | null;
}

export interface BreakerOptions {
  threshold: number;
  cooldownMs: number;
}

export const DEFAULT_BREAKER: BreakerOptions = { threshold: 3, cooldownMs: 30_000 };
export const closedBreaker = (): BreakerState => ({ failures: 0, openedAt: null });

export type BreakerDecision = { allow: true } | { allow: false; retryInMs: number };

export function breakerAllows(
  state: BreakerState,
  now: number,
  opts: BreakerOptions = DEFAULT_BREAKER,
): BreakerDecision {
  if (state.openedAt === null) return { allow: true };
  const until = state.openedAt + opts.cooldownMs;
  return now >= until ? { allow: true } : { allow: false, retryInMs: until - now };
}

export function recordSuccess(_state: BreakerState): BreakerState {
  return closedBreaker();
}

export function recordFailure(
  state: BreakerState,
  now: number,
  opts: BreakerOptions = DEFAULT_BREAKER,
): BreakerState {
  const failures = state.failures + 1;
  // A failed half-open trial reopens at once; otherwise the threshold decides.
  const open = state.openedAt !== null || failures >= opts.threshold;
  return { failures, openedAt: open ? now : null };
}
