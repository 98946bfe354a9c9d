import { describe, expect, it } from 'vitest';
import { CONNECTED, SendBatch } from '../../../../main/conditioner/relay/sendBatch';
import type { DatagramSocket } from '../../../../main/net/endpoint/datagramSocket';

/** A socket stand-in that records its sends (or throws, like a closed dgram socket). */
function fakeSocket(name: string, log: string[], throws = false): DatagramSocket {
  return {
    send(data: Uint8Array, port?: number, host?: string) {
      if (throws) throw new Error('Not running');
      log.push(
        port === undefined
          ? `${name} ${Buffer.from(data).toString()} connected`
          : `${name} ${Buffer.from(data).toString()} ${host}:${port}`,
      );
    },
  } as unknown as DatagramSocket;
}

const endOfPhase = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('SendBatch', () => {
  it('holds sends until the end of the phase, then makes them in order, each to its socket and address', async () => {
    const log: string[] = [];
    const errors: number[] = [];
    const batch = new SendBatch(() => errors.push(1));
    const a = fakeSocket('a', log);
    const b = fakeSocket('b', log);
    batch.send(a, Buffer.from('1'), 5000, '127.0.0.1');
    batch.send(b, Buffer.from('2'), 5001, '127.0.0.2');
    batch.send(a, Buffer.from('3'), 5000, '127.0.0.1');
    expect(log).toEqual([]);
    await endOfPhase();
    expect(log).toEqual(['a 1 127.0.0.1:5000', 'b 2 127.0.0.2:5001', 'a 3 127.0.0.1:5000']);
    // A later burst is a batch of its own: nothing of the first is sent twice.
    batch.send(b, Buffer.from('4'), 5001, '127.0.0.2');
    await endOfPhase();
    expect(log.slice(3)).toEqual(['b 4 127.0.0.2:5001']);
    expect(errors).toEqual([]);
  });

  it('sends without an address for a connected socket', async () => {
    const log: string[] = [];
    const batch = new SendBatch(() => undefined);
    batch.send(fakeSocket('up', log), Buffer.from('1'), CONNECTED, '127.0.0.1');
    batch.send(fakeSocket('down', log), Buffer.from('2'), 5001, '127.0.0.1');
    await endOfPhase();
    expect(log).toEqual(['up 1 connected', 'down 2 127.0.0.1:5001']);
  });

  it('counts a send that throws and still makes the rest', async () => {
    const log: string[] = [];
    let errors = 0;
    const batch = new SendBatch(() => errors++);
    batch.send(fakeSocket('gone', log, true), Buffer.from('x'), 1, '127.0.0.1');
    batch.send(fakeSocket('ok', log), Buffer.from('y'), 2, '127.0.0.1');
    await endOfPhase();
    expect(errors).toBe(1);
    expect(log).toEqual(['ok y 127.0.0.1:2']);
  });

  it('drops what is queued on close and ignores later sends', async () => {
    const log: string[] = [];
    const batch = new SendBatch(() => undefined);
    const a = fakeSocket('a', log);
    batch.send(a, Buffer.from('1'), 1, '127.0.0.1');
    batch.close();
    batch.send(a, Buffer.from('2'), 1, '127.0.0.1');
    await endOfPhase();
    await endOfPhase();
    expect(log).toEqual([]);
  });
});
