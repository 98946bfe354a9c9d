import { afterEach, describe, expect, it } from 'vitest';
import { Client, Server } from '../../../../main/net/index';
import { CHANNEL_POLICY, ChannelPolicies, type ChannelPolicy } from '../../../../shared/net/channel';
import { startLossyRelay } from '../../../support/lossyRelay';
import { waitFor } from '../../../support/waitFor';

// Every entry of the channel table, through a real Server/Client pair on 127.0.0.1 behind a relay that drops,
// duplicates and reorders: a new channel is exercised here without editing this file.

const N = 40;
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const nameOf = (p: ChannelPolicy) =>
  Object.keys(ChannelPolicies).find((k) => ChannelPolicies[k as keyof typeof ChannelPolicies] === p)!;

/** The guarantees a channel has on a protocol: its own, or on v1 (when v1 lacks it) those of the channel it travels as. */
function guarantees(policy: ChannelPolicy, protocol: 'v1' | 'native'): ChannelPolicy {
  if (protocol === 'native' || policy.inV1) return policy;
  return CHANNEL_POLICY.find((p) => p.inV1 && p.v1Wire === policy.v1Wire)!;
}

/** Message `i` of a run: every seventh is bigger than one native datagram, so native fragments it. */
function payload(i: number, protocol: 'v1' | 'native'): { i: number; pad: string } {
  return { i, pad: protocol === 'native' && i % 7 === 3 ? 'x'.repeat(3000) : '' };
}

/** Checks what arrived against the guarantees; `complete`: every message should be in by now. */
function expectDelivery(arrived: number[], g: ChannelPolicy, complete: boolean): void {
  const all = [...Array(N).keys()];
  for (const i of arrived) expect(all).toContain(i);
  if (g.reliable && g.ordered) expect(arrived).toEqual(complete ? all : all.slice(0, arrived.length));
  else if (g.reliable) {
    expect(new Set(arrived).size).toBe(arrived.length);
    if (complete) expect([...arrived].sort((a, b) => a - b)).toEqual(all);
  } else if (g.sequenced) {
    arrived.forEach((i, k) => k > 0 && expect(i).toBeGreaterThan(arrived[k - 1]!));
  }
}

describe('every channel policy, both directions, through a lossy relay', () => {
  for (const protocol of ['v1', 'native'] as const) {
    for (const policy of CHANNEL_POLICY) {
      const g = guarantees(policy, protocol);
      it(`${nameOf(policy)} on ${protocol} (delivered as ${nameOf(g)})`, async () => {
        const native = protocol === 'v1' ? { native: false as const } : {};
        const server = await Server.listen({ port: 0, host: '127.0.0.1', ...native });
        cleanups.push(() => server.close());
        const relay = await startLossyRelay(server.port, { drop: 0.15, duplicate: 0.1, reorder: 0.2 }, 20 + policy.id);
        cleanups.push(relay.close);
        const client = new Client(native);
        cleanups.push(() => client.close());
        const atServer: number[] = [];
        const atClient: number[] = [];
        server.onMessage('walk', (_peer, m) => atServer.push(m.i as number));
        client.onMessage('walk', (m) => atClient.push(m.i as number));
        let dropped = false;
        client.onDisconnect(() => (dropped = true));
        await client.connect('127.0.0.1', relay.port, { timeout: 10 });
        expect(client.protocol).toBe(protocol);
        const peerId = server.getPeers()[0]!.id;
        for (let i = 0; i < N; i++) {
          expect(client.send('walk', payload(i, protocol), policy.id)).toBe(true);
          expect(server.sendTo(peerId, 'walk', payload(i, protocol), policy.id)).toBe(true);
        }
        if (g.reliable) {
          await waitFor(() => atServer.length >= N && atClient.length >= N, 20_000, `${N} reliable each way`);
        } else {
          // 15% loss: most arrive; wait for a third, then check what came (the checks hold for any prefix).
          await waitFor(() => atServer.length >= N / 3 && atClient.length >= N / 3, 10_000, 'unreliable arrivals');
        }
        expectDelivery(atServer, g, g.reliable);
        expectDelivery(atClient, g, g.reliable);
        expect(dropped).toBe(false);
      }, 30_000);
    }
  }
});
