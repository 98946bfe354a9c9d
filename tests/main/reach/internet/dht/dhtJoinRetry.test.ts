import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import type HyperDHT from 'hyperdht';
import { systemScheduler } from '../../../../../main/base/scheduler';
import { MAX_JOIN_TRIES } from '../../../../../main/base/retryShortWaits';
import { connectDhtRoom, DhtConnectError } from '../../../../../main/reach/internet/dht/dhtJoin';

// No network: a stand-in DHT whose every connect fails the way hyperdht reports a refusal or a missing room.

/** A DHT whose connects each fail at once with hyperdht's error `code`; counts them. */
function failingDht(code: string) {
  let connects = 0;
  const dht = {
    connect() {
      connects += 1;
      const stream = Object.assign(new EventEmitter(), { destroy: () => undefined });
      setImmediate(() => stream.emit('error', Object.assign(new Error(code), { code })));
      return stream;
    },
  } as unknown as HyperDHT;
  return { dht, connects: () => connects };
}

const CODE = { publicKey: 'ab'.repeat(32), secret: 'K7Q2M9XD4' } as never;

describe('a DHT join refused on the way in', () => {
  it('tries an unreachable host again (a room past its connect budget answers nothing), then says so', async () => {
    const refused = failingDht('PEER_CONNECTION_FAILED');
    const joined = connectDhtRoom(CODE, { dht: refused.dht, scheduler: systemScheduler, connectTimeoutMs: 5000 });
    await expect(joined).rejects.toMatchObject({ name: 'DhtConnectError', failure: 'unreachable' });
    expect(refused.connects()).toBe(MAX_JOIN_TRIES);
  });

  it('does not try again a room nobody listens for', async () => {
    const gone = failingDht('PEER_NOT_FOUND');
    const joined = connectDhtRoom(CODE, { dht: gone.dht, scheduler: systemScheduler, connectTimeoutMs: 5000 });
    await expect(joined).rejects.toBeInstanceOf(DhtConnectError);
    await expect(joined).rejects.toMatchObject({ failure: 'not-found' });
    expect(gone.connects()).toBe(1);
  });
});
