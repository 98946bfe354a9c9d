import { describe, expect, it } from 'vitest';
import { againstV1 } from '../../bench/againstV1';
import type { BenchResult } from '../../bench/benchResult';

const row = (name: string, value: number, unit: string): BenchResult => ({ name, value, unit, baseline: 1 });

describe('againstV1', () => {
  it('sets each native mode’s rate, echo and size against v1’s from the same run', () => {
    const results = [
      row('v1: reliable ordered 100-byte messages/s (median of 5)', 80_000, 'msg/s'),
      row('v1: echo RTT p50 (median of 5)', 0.053, 'ms'),
      row('v1: echo RTT p99 (median of 5)', 0.25, 'ms'),
      row('v1: bytes on the wire per message', 121, 'B'),
      row('v1: datagrams per message', 1, ''),
      row('native: reliable ordered 100-byte messages/s (median of 5)', 500_000, 'msg/s'),
      row('native: bytes on the wire per message', 107, 'B'),
      row('native+bytes: echo RTT p50 (median of 5)', 0.046, 'ms'),
    ];
    expect(againstV1(results)).toEqual([
      { name: 'native vs v1: reliable ordered 100-byte messages/s', value: 500_000, unit: 'msg/s', baseline: 80_000 },
      { name: 'native vs v1: bytes on the wire per message', value: 107, unit: 'B', baseline: 121 },
      { name: 'native+bytes vs v1: echo RTT p50', value: 0.046, unit: 'ms', baseline: 0.053 },
    ]);
  });

  it('has nothing to compare without v1 rows', () => {
    expect(againstV1([row('native: echo RTT p50 (median of 5)', 0.05, 'ms')])).toEqual([]);
  });
});

describe('againstV1 over alternating rounds', () => {
  it('carries both sides’ per-round figures, so the ratio printed is the median per-round one', () => {
    const rounds = (value: number[]): BenchResult => ({
      name: '',
      value: 0,
      unit: 'ms',
      rounds: { value, baseline: value },
    });
    const results: BenchResult[] = [
      { ...rounds([0.05, 0.06]), name: 'v1: echo RTT p50' },
      { ...rounds([0.03, 0.04]), name: 'native+bytes: echo RTT p50' },
      { ...rounds([0.02, 0.02]), name: 'ws: echo RTT p50' },
      { ...rounds([0.03, 0.04]), name: 'native+bytes vs ws: echo RTT p50' },
    ];
    const out = againstV1(results);
    expect(out.map((r) => r.name)).toEqual(['native+bytes vs v1: echo RTT p50']);
    expect(out[0]!.rounds).toEqual({ value: [0.03, 0.04], baseline: [0.05, 0.06] });
  });
});
