import { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import type HyperDHT from 'hyperdht';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../../../../main/base/logger';
import { systemScheduler } from '../../../../../main/base/scheduler';
import type { DhtNode } from '../../../../../main/reach/internet/dht/dhtNode';
import { dhtJoinFailureOf, dhtJoinFailureText } from '../../../../../main/reach/internet/dht/dhtJoinFailure';
import { createInternetReach } from '../../../../../main/reach/internet/index';
import { IpcError, IpcErrorCode } from '../../../../../shared/ipc/errors';
import { encodeDhtCode } from '../../../../../shared/rendezvous';

// hyperdht's own error class (lib/errors.js): each static makes the error the library throws, with its code.
type LibraryError = Error & { code: string };
const DHTError = createRequire(import.meta.url)('hyperdht/lib/errors.js') as Record<string, () => LibraryError>;

/** A DHT node whose every connect fails with `error` (nothing is sent anywhere). */
function failingDht(error: LibraryError): DhtNode {
  const dht = {
    connect: () => {
      const stream = Object.assign(new EventEmitter(), { destroy: () => undefined, destroyed: false });
      queueMicrotask(() => stream.emit('error', error));
      return stream;
    },
  } as unknown as HyperDHT;
  return { get: () => Promise.resolve(dht), natView: () => undefined, close: () => Promise.resolve() };
}

const code = encodeDhtCode('ab'.repeat(32), 'K7Q2M9XD4');

describe('a DHT join that finds no path', () => {
  it('types the library’s errors: both NATs randomizing, or the punch aborted, need a relay', () => {
    expect(dhtJoinFailureOf(DHTError.HOLEPUNCH_DOUBLE_RANDOMIZED_NATS!())).toBe('relay-needed');
    expect(dhtJoinFailureOf(DHTError.HOLEPUNCH_ABORTED!())).toBe('relay-needed');
    expect(dhtJoinFailureOf(DHTError.REMOTE_NOT_HOLEPUNCHABLE!())).toBe('relay-needed');
    expect(dhtJoinFailureOf(DHTError.PEER_NOT_FOUND!())).toBe('not-found');
    expect(dhtJoinFailureOf(DHTError.PEER_CONNECTION_FAILED!())).toBe('unreachable');
    expect(dhtJoinFailureOf(new Error('no code'))).toBe('unreachable');
    expect(dhtJoinFailureOf(undefined)).toBe('unreachable');
  });

  it('says plainly that a relay is needed, and what to do with or without a rendezvous', async () => {
    for (const rendezvousUrl of [null, 'ws://127.0.0.1:1/rendezvous/v1']) {
      const reach = createInternetReach({
        settings: async () => ({ rendezvousUrl, turn: { mode: 'none' } }),
        scheduler: systemScheduler,
        logger: silentLogger,
        dht: failingDht(DHTError.HOLEPUNCH_DOUBLE_RANDOMIZED_NATS!()),
      });
      const failure = await reach.locate({ code }, { onProgress: () => undefined }).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(IpcError);
      expect(failure).toMatchObject({ code: IpcErrorCode.UNAVAILABLE, detail: 'relay-needed' });
      const text = (failure as IpcError).message;
      expect(text).toMatch(/^Your two networks cannot reach each other directly: a relay is needed\. /);
      expect(text).toBe(dhtJoinFailureText('relay-needed', rendezvousUrl !== null));
      expect(text).toMatch(rendezvousUrl === null ? /Set up a rendezvous server/ : /Ask the host/);
    }
  });

  it('says the room was not found when no one listens on its key, and that the DHT is off when it is', async () => {
    const reach = createInternetReach({
      settings: async () => ({ rendezvousUrl: null, turn: { mode: 'none' } }),
      scheduler: systemScheduler,
      logger: silentLogger,
      dht: failingDht(DHTError.PEER_NOT_FOUND!()),
    });
    await expect(reach.locate({ code }, { onProgress: () => undefined })).rejects.toMatchObject({
      detail: 'not-found',
      message: expect.stringMatching(/not found/),
    });
    const off = createInternetReach({
      settings: async () => ({ rendezvousUrl: null, turn: { mode: 'none' } }),
      scheduler: systemScheduler,
      logger: silentLogger,
    });
    await expect(off.locate({ code }, { onProgress: () => undefined })).rejects.toMatchObject({
      code: IpcErrorCode.FAILED_PRECONDITION,
      message: expect.stringMatching(/public DHT, which this LAN Party was started without/),
    });
  });
});
