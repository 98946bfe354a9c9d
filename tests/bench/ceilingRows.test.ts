import { describe, expect, it } from 'vitest';
import { ceilingRows } from '../../bench/ceilingRows';
import { perRoundRatios } from '../../bench/rounds';

describe('ceilingRows', () => {
  const ours = [
    { rate: 1_500_000, datagramsPerMessage: 0.1 },
    { rate: 1_400_000, datagramsPerMessage: 0.08 },
    { rate: 1_600_000, datagramsPerMessage: 0.1 },
  ];
  const enet = [400_000, 500_000, 400_000];
  const full = [240_000, 200_000, 250_000];
  const [ceiling, share] = ceilingRows(ours, enet, 'raw dgram, 1200-byte datagrams', full);

  it('turns each round’s full datagrams/s into messages/s with that round’s messages per datagram', () => {
    expect(ceiling!.rounds!.value).toEqual([2_400_000, 2_500_000, 2_500_000]);
    expect(ceiling!.rounds!.baseline).toEqual(enet);
    expect(ceiling!.name).toContain('raw dgram, 1200-byte datagrams');
    expect(perRoundRatios(ceiling!.rounds!.value, ceiling!.rounds!.baseline).median).toBe(6);
  });

  it('sets ours against the ceiling of the same round', () => {
    expect(share!.rounds!.value).toEqual([1_500_000, 1_400_000, 1_600_000]);
    expect(share!.rounds!.baseline).toEqual([2_400_000, 2_500_000, 2_500_000]);
    expect(perRoundRatios(share!.rounds!.value, share!.rounds!.baseline).median).toBeCloseTo(0.625, 6);
    expect(share!.higherIsBetter).toBe(true);
  });
});
