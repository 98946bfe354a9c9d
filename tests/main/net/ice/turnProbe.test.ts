import { createSocket, type Socket } from 'node:dgram';
import { afterEach, describe, expect, it } from 'vitest';
import { classes, Message, methods, parseMessage } from 'werift-ice';
import { probeTurnAllocation } from '../../../../main/net/ice/turnProbe';
import { systemScheduler } from '../../../../main/base/scheduler';
import { sleep } from '../../../support/waitFor';

// A stand-in TURN server on 127.0.0.1: a 401 challenge to the first Allocate, success to the signed one, and no
// answer at all to the Refresh that frees the allocation (a slow or busy server).
const sockets: Socket[] = [];
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.close();
});

async function silentOnRefreshServer(): Promise<{ port: number; refreshes: () => number }> {
  const socket = createSocket('udp4');
  sockets.push(socket);
  let refreshes = 0;
  socket.on('message', (data, from) => {
    const request = parseMessage(data);
    if (!request) return;
    if (request.messageMethod === methods.REFRESH) {
      refreshes += 1;
      return;
    }
    const signed = request.getAttributeValue('USERNAME') !== undefined;
    const answer = signed
      ? new Message(methods.ALLOCATE, classes.RESPONSE, request.transactionId)
      : new Message(methods.ALLOCATE, classes.ERROR, request.transactionId)
          .setAttribute('ERROR-CODE', [401, 'Unauthorized'])
          .setAttribute('REALM', 'lab')
          .setAttribute('NONCE', Buffer.from('nonce'));
    socket.send(answer.bytes, from.port, from.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return { port: socket.address().port, refreshes: () => refreshes };
}

describe('probeTurnAllocation', () => {
  it('an unanswered release of the allocation stops retrying once the probe is done, instead of throwing', async () => {
    const server = await silentOnRefreshServer();
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      await expect(
        probeTurnAllocation(['127.0.0.1', server.port], 'user', 'pass', 30, { scheduler: systemScheduler }),
      ).resolves.toEqual({
        outcome: 'allocated',
      });
      // Past every retry the release would have made (3 × 30 ms after the probe returned).
      await sleep(300);
      expect(unhandled).toEqual([]);
      // Asked at least once, retried while the probe ran, never past its 3 attempts.
      expect(server.refreshes()).toBeGreaterThanOrEqual(1);
      expect(server.refreshes()).toBeLessThanOrEqual(3);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
