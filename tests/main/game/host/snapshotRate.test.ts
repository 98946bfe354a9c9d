import { describe, expect, it } from 'vitest';
import {
  initialSnapshotRate,
  nextSnapshotRate,
  RATE_UP_AFTER,
  snapshotEveryFor,
  snapshotsPerSecond,
} from '../../../../main/game/host/snapshotRate';

const lan = { rtt: 0.001, loss: 0 };

describe('the room snapshot rate', () => {
  it('is 60 a second on a LAN (and with no guests, or links not measured yet)', () => {
    expect(snapshotEveryFor([lan, lan, { rtt: 0.004, loss: 0.005 }])).toBe(1);
    expect(snapshotEveryFor([])).toBe(1);
    expect(snapshotEveryFor([{ rtt: undefined, loss: 0 }])).toBe(1);
    expect(snapshotsPerSecond(1)).toBe(60);
  });

  it('is 30 when any guest is on an internet path or losing more than 1%, 20 above 10% loss', () => {
    expect(snapshotEveryFor([lan, { rtt: 0.045, loss: 0 }])).toBe(2);
    expect(snapshotEveryFor([lan, { rtt: 0.002, loss: 0.02 }])).toBe(2);
    expect(
      snapshotEveryFor([
        { rtt: 0.002, loss: 0.2 },
        { rtt: 0.08, loss: 0 },
      ]),
    ).toBe(3);
    expect(snapshotEveryFor([{ rtt: 0.002, loss: NaN }])).toBe(1);
    expect(snapshotsPerSecond(2)).toBe(30);
  });

  it('reads a path by its least round trip lately: a stall that lifts the smoothed one keeps a LAN room at 60', () => {
    expect(snapshotEveryFor([{ rtt: 0.045, minRtt: 0.001, loss: 0 }])).toBe(1);
    expect(snapshotEveryFor([{ rtt: 0.045, minRtt: 0.035, loss: 0 }])).toBe(2);
    expect(snapshotEveryFor([{ rtt: 0.045, minRtt: undefined, loss: 0 }])).toBe(2); // no recent sample: the smoothed one
  });

  it('goes down at once and up only after the links allowed it RATE_UP_AFTER times in a row', () => {
    let rate = initialSnapshotRate([lan]);
    expect(rate.every).toBe(1);
    rate = nextSnapshotRate(rate, [{ rtt: 0.002, loss: 0.05 }]);
    expect(rate.every).toBe(2);
    for (let i = 1; i < RATE_UP_AFTER; i += 1) {
      rate = nextSnapshotRate(rate, [lan]);
      expect(rate.every).toBe(2);
    }
    rate = nextSnapshotRate(rate, [{ rtt: 0.002, loss: 0.05 }]); // a bad evaluation starts the count again
    for (let i = 1; i < RATE_UP_AFTER; i += 1) rate = nextSnapshotRate(rate, [lan]);
    expect(rate.every).toBe(2);
    rate = nextSnapshotRate(rate, [lan]);
    expect(rate.every).toBe(1);
  });
});
