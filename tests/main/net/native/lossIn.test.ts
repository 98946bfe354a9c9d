import { describe, expect, it } from 'vitest';
import { Channel } from '../../../../shared/net/channel';
import { NativePair } from '../../../support/nativePair';

describe('stats().lossIn on a native connection (virtual clock, seeded loss)', () => {
  for (const loss of [0, 0.1, 0.2]) {
    it(`reads the other side's ${loss * 100}% loss within 2 points, and no loss the other way`, () => {
      const pair = new NativePair({ loss }, {}, 21);
      for (let tick = 0; tick < 400; tick++) {
        for (let k = 0; k < 2; k++) pair.send('a', 'n', { i: tick, pad: 'x'.repeat(900) }, Channel.UNRELIABLE);
        pair.run(0.005);
      }
      const inB = pair.b.stats().lossIn!;
      expect(inB).toBeGreaterThanOrEqual(loss - 0.02);
      expect(inB).toBeLessThanOrEqual(loss + 0.02);
      expect(pair.a.stats().lossIn).toBe(0);
    });
  }
});
