import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { MessageChannel, Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { SyncCaller } from '../../../bench/workerConditioner/syncCall';

const tsx = createRequire(__filename).resolve('tsx/cjs');
const source = resolve(__dirname, '../../../bench/workerConditioner/syncCall.ts');

// The answering side in a real second thread: doubles numbers, throws for 'boom', and stalls for 'slow'.
const ANSWERER = `
require(${JSON.stringify(tsx)});
const { workerData } = require('node:worker_threads');
const { serveSyncCalls } = require(${JSON.stringify(source)});
serveSyncCalls(workerData.port, workerData.signal, (request) => {
  if (request === 'boom') throw new Error('boom from the worker');
  if (request === 'slow') {
    const until = Date.now() + 150;
    while (Date.now() < until);
    return 'late';
  }
  return request * 2;
});
`;

const workers: Worker[] = [];
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.terminate()));
});

function answerer(timeoutMs: number): SyncCaller<unknown, unknown> {
  const { port1, port2 } = new MessageChannel();
  const signal = new SharedArrayBuffer(4);
  workers.push(new Worker(ANSWERER, { eval: true, workerData: { port: port2, signal }, transferList: [port2] }));
  return new SyncCaller(port1, signal, timeoutMs);
}

describe('SyncCaller', () => {
  it('returns what the other thread answers, call after call', () => {
    const caller = answerer(10_000);
    expect([1, 2, 3].map((n) => caller.call(n))).toEqual([2, 4, 6]);
  });

  it('rethrows an error thrown while answering, and keeps working', () => {
    const caller = answerer(10_000);
    expect(() => caller.call('boom')).toThrow('boom from the worker');
    expect(caller.call(21)).toBe(42);
  });

  it('gives up after the timeout and then skips the late answer', () => {
    const caller = answerer(10_000);
    expect(caller.call(1)).toBe(2); // the worker is up
    expect(() => caller.call('slow', 20)).toThrow(/no answer from the other thread within 20 ms/);
    expect(caller.call(5)).toBe(10);
  });

  it('times out when nothing answers at all', () => {
    const { port1 } = new MessageChannel();
    const caller = new SyncCaller(port1, new SharedArrayBuffer(4), 30);
    expect(() => caller.call('anyone?')).toThrow(/within 30 ms/);
    port1.close();
  });
});
