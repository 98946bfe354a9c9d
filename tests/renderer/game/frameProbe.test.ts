import { afterEach, describe, expect, it } from 'vitest';
import { probeFrame } from '../../../renderer/src/game/frameProbe';

type ProbeHost = { __lanPartyFrameProbe?: unknown };

describe('probeFrame', () => {
  afterEach(() => {
    delete (globalThis as ProbeHost).__lanPartyFrameProbe;
  });

  it('hands each frame and its time to the page’s probe when one is defined', () => {
    const seen: [number, unknown][] = [];
    (globalThis as ProbeHost).__lanPartyFrameProbe = (now: number, frame: unknown) => seen.push([now, frame]);
    const frame = { players: [] };
    probeFrame(1.5, frame);
    expect(seen).toEqual([[1.5, frame]]);
  });

  it('does nothing without a probe, or when the name holds something else', () => {
    expect(() => probeFrame(1, null)).not.toThrow();
    (globalThis as ProbeHost).__lanPartyFrameProbe = 'not a function';
    expect(() => probeFrame(1, null)).not.toThrow();
  });
});
