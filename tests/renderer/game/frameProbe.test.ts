import { afterEach, describe, expect, it } from 'vitest';
import { probeFrame } from '../../../renderer/src/game/frameProbe';

type ProbeHost = { __lanPartyFrameProbe?: unknown };

describe('probeFrame', () => {
  afterEach(() => {
    delete (globalThis as ProbeHost).__lanPartyFrameProbe;
  });

  it('hands each frame, its time and its interpolation delay to the page’s probe when one is defined', () => {
    const seen: unknown[][] = [];
    (globalThis as ProbeHost).__lanPartyFrameProbe = (...args: unknown[]) => seen.push(args);
    const frame = { players: [] };
    probeFrame(1.5, frame, 0.02);
    probeFrame(1.6, frame, undefined);
    expect(seen).toEqual([
      [1.5, frame, 0.02],
      [1.6, frame, undefined],
    ]);
  });

  it('does nothing without a probe, or when the name holds something else', () => {
    expect(() => probeFrame(1, null, undefined)).not.toThrow();
    (globalThis as ProbeHost).__lanPartyFrameProbe = 'not a function';
    expect(() => probeFrame(1, null, undefined)).not.toThrow();
  });
});
