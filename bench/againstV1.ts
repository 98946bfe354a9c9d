import type { BenchResult } from './benchResult';

/** The rows of the transport table compared across modes: what a native mode's row is set against. */
const COMPARED = [
  'reliable ordered 100-byte messages/s',
  'echo RTT p50',
  'echo RTT p99',
  'bytes on the wire per message',
];

/**
 * Each native mode's rate, echo and size against gale.net v1's from the same run (the transport table
 * sets both against raw dgram; this puts them side by side).
 */
export function againstV1(results: readonly BenchResult[]): BenchResult[] {
  const rowOf = (mode: string, measure: string) => results.find((r) => r.name.startsWith(`${mode}: ${measure}`));
  // The native modes only: the peers (ws, ENet) and the goal rows ("native+bytes vs ws") have rows of their own.
  const modes = [...new Set(results.map((r) => r.name.split(':')[0]!))].filter(
    (m) => m.startsWith('native') && !m.includes(' vs '),
  );
  const out: BenchResult[] = [];
  for (const mode of modes) {
    for (const measure of COMPARED) {
      const native = rowOf(mode, measure);
      const v1 = rowOf('v1', measure);
      if (!native || !v1) continue;
      const compared: BenchResult = {
        name: `${mode} vs v1: ${measure}`,
        value: native.value,
        unit: native.unit,
        baseline: v1.value,
      };
      // Measured in the same alternating rounds: the ratio is the median of the per-round ones.
      if (native.rounds && v1.rounds) compared.rounds = { value: native.rounds.value, baseline: v1.rounds.value };
      out.push(compared);
    }
  }
  return out;
}
