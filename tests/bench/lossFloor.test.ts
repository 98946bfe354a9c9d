import { describe, expect, it } from 'vitest';
import { oracleLatencies, type TracedDatagram } from '../../bench/lossFloor';

/** A datagram every 10 ms from `start`, 20 ms one way, lost where `lost` says. */
function direction(count: number, start: number, lost: number[] = []): TracedDatagram[] {
  return Array.from({ length: count }, (_, i) => {
    const sent = start + 10 * i;
    return lost.includes(i) ? { sent } : { sent, arrived: sent + 20 };
  });
}

describe('oracleLatencies', () => {
  it('delivers a message whose datagram arrived at its arrival', () => {
    const out = oracleLatencies(
      [direction(5, 0), direction(5, 5)],
      [{ direction: 0, datagram: 1, at: 9, ordered: false }],
    );
    expect(out).toEqual([21]);
  });

  it('recovers a loss one news trip and one re-send after the next datagram shows the gap', () => {
    // Lost at 10; the datagram at 20 arrives at 40 (gap seen); the first datagram back leaving ≥ 40 is at 45, arriving
    // at 65; the first out leaving ≥ 65 is at 70, arriving at 90: 80 ms after the send, the 70 ms floor of issue 20.
    const out = oracleLatencies(
      [direction(12, 0, [1]), direction(12, 5)],
      [{ direction: 0, datagram: 1, at: 10, ordered: false }],
    );
    expect(out).toEqual([80]);
  });

  it('rides only datagrams that arrived: a lost news or re-send waits for the next', () => {
    // Back datagram at 45 lost too: the news rides 55 (arrives 75); the re-send leaves at 80 and is lost; 90 arrives at 110.
    const out = oracleLatencies(
      [direction(14, 0, [1, 8]), direction(14, 5, [4])],
      [{ direction: 0, datagram: 1, at: 10, ordered: false }],
    );
    expect(out).toEqual([100]);
  });

  it('holds an ordered message behind an earlier lost one of its direction, not an unordered one', () => {
    const out = oracleLatencies(
      [direction(12, 0, [1]), direction(12, 5)],
      [
        { direction: 0, datagram: 1, at: 10, ordered: true },
        { direction: 0, datagram: 2, at: 20, ordered: true },
        { direction: 0, datagram: 2, at: 20, ordered: false },
        { direction: 1, datagram: 2, at: 25, ordered: true },
      ],
    );
    expect(out).toEqual([80, 70, 20, 20]);
  });

  it('gives NaN where the trace ends before a recovery', () => {
    const out = oracleLatencies(
      [direction(2, 0, [1]), direction(2, 5)],
      [{ direction: 0, datagram: 1, at: 10, ordered: false }],
    );
    expect(out[0]).toBeNaN();
  });
});
