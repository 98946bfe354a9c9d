import { describe, expect, it } from 'vitest';
import { GameClient } from '../../../main/game/gameClient';
import { GameHost } from '../../../main/game/host/gameHost';
import { ManualScheduler } from '../../support/manualScheduler';
import { seededRandom } from '../../support/seededRandom';
import { OPEN_TAG, THREE_PLAYERS } from './hostKit';
import { VirtualGameLink } from './virtualLink';

/** Snapshots each of two guests receives in one virtual second of a round, over a clean 1 ms link. */
function receivedInASecond(snapshotEvery: number | undefined): number[] {
  const scheduler = new ManualScheduler(0);
  const net = new VirtualGameLink(scheduler, { latencyMs: 1, jitterMs: 0.2, loss: 0 }, seededRandom(4));
  const guests = [1, 2].map((id) => new GameClient({ game: OPEN_TAG, transport: net.guest(id), playerId: String(id) }));
  const host = new GameHost({
    game: OPEN_TAG,
    transport: net.host,
    players: THREE_PLAYERS,
    onRoundEnd: () => undefined,
    scheduler,
    ...(snapshotEvery !== undefined ? { snapshotEvery } : {}),
  });
  host.start();
  scheduler.advance(100); // the first snapshots have arrived
  const before = guests.map((g) => g.stats().snapshotsReceived);
  scheduler.advance(1000);
  host.stop();
  return guests.map((g, i) => g.stats().snapshotsReceived - before[i]!);
}

describe('the room snapshot rate, as guests receive it', () => {
  it('is 60 a second on a LAN room, the host choosing', () => {
    for (const n of receivedInASecond(undefined)) expect(Math.abs(n - 60)).toBeLessThanOrEqual(1);
  });

  it('is 30 a second when the host is told the old fixed rate', () => {
    for (const n of receivedInASecond(2)) expect(Math.abs(n - 30)).toBeLessThanOrEqual(1);
  });
});
