import { describe, expect, it } from 'vitest';
import { relayRows } from '../../bench/internetPaths';
import type { LabFigures } from '../../tests/support/labIcePeer';

/** One round's figures over a path: RTT (ms) and throughput (bytes/s), raw datagrams and our stack. */
const figures = (rawRttMs: number, stackRttMs: number, rawBytesPerSecond: number, stackBytesPerSecond: number) =>
  ({
    rawRttMs,
    stackRttMs,
    rawBytesPerSecond,
    stackBytesPerSecond,
    rawLost: 0,
    stackRetransmits: 0,
    windowBytes: 16_384,
  }) satisfies LabFigures;

describe('relayRows: the relay’s cost to our stack against its cost to bare datagrams', () => {
  it('compares added RTT and throughput loss round by round, against the +10% goal', () => {
    const direct = [figures(20, 22, 1000, 900), figures(21, 23, 1000, 800)];
    const relayed = [figures(50, 55, 400, 450), figures(51, 54, 500, 400)];
    const [rtt, loss] = relayRows(direct, relayed);
    // Round 1: raw adds 30 ms, the stack 33 ms; round 2: 30 and 31.
    expect(rtt).toMatchObject({ unit: 'ms', rounds: { value: [33, 31], baseline: [30, 30] } });
    expect(rtt!.goal).toEqual({ kind: 'atMost', bound: 1.1 });
    expect(rtt!.higherIsBetter).toBe(false);
    // Round 1: raw loses 60% of its throughput, the stack 50%; round 2: 50% and 50%.
    expect(loss!.rounds!.value).toEqual([0.5, 0.5]);
    expect(loss!.rounds!.baseline.map((v) => Number(v.toFixed(6)))).toEqual([0.6, 0.5]);
    expect(loss!.goal).toEqual({ kind: 'atMost', bound: 1.1 });
  });
});
