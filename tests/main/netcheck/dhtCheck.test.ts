import type HyperDHT from 'hyperdht';
import { describe, expect, it } from 'vitest';
import { systemScheduler } from '../../../main/base/scheduler';
import { checkDht } from '../../../main/netcheck/dhtCheck';
import type { DhtNode } from '../../../main/reach/internet/dht/dhtNode';
import { dhtReportSchema } from '../../../shared/netcheck/report';
import { ManualScheduler } from '../../support/manualScheduler';

/** A DHT node that has joined and sees this machine as `view` (nothing is sent anywhere). */
const nodeSeeing = (view: { firewalled: boolean; host: string | null; port: number }): DhtNode => ({
  get: () => Promise.resolve(view as unknown as HyperDHT),
  natView: () => undefined,
  close: () => Promise.resolve(),
});

describe('the network check’s DHT view', () => {
  it('says which kind of NAT the DHT sees, in words', async () => {
    const cases = [
      [{ firewalled: false, host: '203.0.113.5', port: 49737 }, 'open', '203.0.113.5:49737', /straight in/],
      [{ firewalled: true, host: '203.0.113.5', port: 40001 }, 'consistent', '203.0.113.5:40001', /no relay needed/],
      [{ firewalled: true, host: '203.0.113.5', port: 0 }, 'randomized', '203.0.113.5:0', /a relay is needed/],
      [{ firewalled: true, host: null, port: 0 }, 'unknown', null, /again/],
    ] as const;
    for (const [view, status, publicAddress, words] of cases) {
      const report = await checkDht({ dht: nodeSeeing(view), scheduler: systemScheduler });
      expect(dhtReportSchema.parse(report)).toMatchObject({
        status,
        publicAddress,
        message: expect.stringMatching(words),
      });
    }
  });

  it('is skipped when the DHT is off, and says it failed when the DHT does not answer in time', async () => {
    expect(await checkDht({ dht: undefined, scheduler: systemScheduler })).toMatchObject({ status: 'skipped' });
    const scheduler = new ManualScheduler();
    const never: DhtNode = { get: () => new Promise(() => undefined), natView: () => undefined, close: async () => {} };
    const pending = checkDht({ dht: never, scheduler, timeoutMs: 1000 });
    scheduler.advance(1000);
    expect(await pending).toMatchObject({ status: 'failed', message: expect.stringMatching(/no bootstrap node/) });
  });
});
