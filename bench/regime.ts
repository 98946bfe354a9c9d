/**
 * The machine's two states (issue 41): with its cores kept awake a raw dgram round trip on loopback took ~60 µs,
 * with them idle ~160 µs (waking an idle vCPU costs the rest). A round is classified by its own raw measurement,
 * split at the geometric middle.
 */
export const IDLE_CORE_RAW_RTT_MS = 0.1;

/** Which regime a round ran in. */
export type Regime = 'idle-core' | 'busy-core';

/** The regime of a round whose raw dgram echo p50 was `rawRttMs`; undefined for no figure. */
export function regimeOf(rawRttMs: number): Regime | undefined {
  if (!Number.isFinite(rawRttMs) || rawRttMs <= 0) return undefined;
  return rawRttMs > IDLE_CORE_RAW_RTT_MS ? 'idle-core' : 'busy-core';
}

/** "round 1 busy-core (raw 0.061 ms), round 2 idle-core (raw 0.158 ms)…", one entry per round. */
export function describeRegimes(rawRttMs: readonly number[]): string {
  return rawRttMs
    .map((ms, i) => `round ${i + 1} ${regimeOf(ms) ?? 'unknown'} (raw ${Number.isFinite(ms) ? ms.toFixed(3) : '—'} ms)`)
    .join(', ');
}
