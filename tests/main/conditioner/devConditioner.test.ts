import { testBackend } from '../../support/testBackend';
import { afterEach, describe, expect, it } from 'vitest';
import { createDevConditioner } from '../../../main/conditioner/devConditioner';
import { silentLogger } from '../../../main/base/logger';
import type { NetStats } from '../../../shared/ipc/schemas/game';
import { waitFor } from '../../support/waitFor';
import { freeUdpPort, loopbackNetwork } from '../../support/loopbackNetwork';

// Two real backends on loopback: A hosts, B joins through the developer link conditioner (127.0.0.1 only).
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function backend(name: string, discoveryPort: number) {
  const b = await testBackend(cleanups, { osUserName: name, network: loopbackNetwork(discoveryPort) });
  const ctx = { transport: 'electron' } as const;
  const call = async <T>(request: string, input?: unknown): Promise<T> => {
    const result = await b.gateway.dispatch(request, input, ctx);
    if (!result.ok) throw new Error(`${request} failed: ${result.error.code} ${result.error.message}`);
    return result.value as T;
  };
  return { b, call, dispatch: (request: string, input?: unknown) => b.gateway.dispatch(request, input, ctx) };
}

describe('developer link conditioner', () => {
  it('joins through the conditioner, adds its latency to the RTT, reports it, and clears for the next join', async () => {
    const discoveryPort = await freeUdpPort();
    const [a, guest] = [await backend('ada', discoveryPort), await backend('bo', discoveryPort)];
    await a.call('lobby.host', { roomName: 'Lag lab' });
    const hosted = a.b.lobby.view();
    const profile = { loss: 0, latencyMs: 40, jitterMs: 0 };
    expect(await guest.call('dev.setConditioner', { profile: { latencyMs: 40 } })).toEqual({ profile, active: false });

    await guest.call('lobby.joinByCode', { code: hosted.code });
    expect(guest.b.lobby.view().status).toBe('in-room');
    expect(await guest.call('dev.getConditioner')).toEqual({ profile, active: true });
    const stats = () => guest.b.game.handlers['net.stats']();
    await waitFor(() => (stats().links[0]?.rttMs ?? 0) >= 80, 5000, 'conditioned rtt');
    const conditioned = await guest.call<NetStats>('net.stats');
    expect(conditioned.conditioner).toEqual({
      upstream: { latencyMs: 40, jitterMs: 0, loss: 0 },
      downstream: { latencyMs: 40, jitterMs: 0, loss: 0 },
    });
    expect(conditioned.links[0]!.rttMs).toBeGreaterThanOrEqual(80);
    expect((await a.call<NetStats>('net.stats')).conditioner).toBeNull();

    // A live change reaches the relay of the current stay.
    await guest.call('dev.setConditioner', { profile: { latencyMs: 10, jitterMs: 2, loss: 0.01 } });
    expect((await guest.call<NetStats>('net.stats')).conditioner?.upstream).toEqual({
      latencyMs: 10,
      jitterMs: 2,
      loss: 0.01,
    });

    await guest.call('lobby.leave');
    expect(await guest.call('dev.getConditioner')).toMatchObject({ active: false });
    expect(await guest.call('dev.setConditioner', { profile: null })).toEqual({ profile: null, active: false });
    await guest.call('lobby.joinByCode', { code: hosted.code });
    expect(await guest.call('dev.getConditioner')).toEqual({ profile: null, active: false });
    expect((await guest.call<NetStats>('net.stats')).conditioner).toBeNull();
    await waitFor(() => stats().links[0]?.rttMs != null, 5000, 'direct rtt');
  });

  it('rejects bad profiles with invalid-argument and keeps the previous one', async () => {
    const { call, dispatch } = await backend('cy', await freeUdpPort());
    await call('dev.setConditioner', { profile: { loss: 0.1 } });
    const bad = [
      { profile: { loss: 1.5 } },
      { profile: { latencyMs: -1 } },
      { profile: { jitterMs: 'slow' } },
      { profile: { duplicate: 0.5 } },
      { profile: undefined },
      {},
      undefined,
    ];
    for (const input of bad) {
      expect(await dispatch('dev.setConditioner', input), JSON.stringify(input)).toMatchObject({
        ok: false,
        error: { code: 'invalid-argument' },
      });
    }
    expect(await call('dev.getConditioner')).toEqual({
      profile: { loss: 0.1, latencyMs: 0, jitterMs: 0 },
      active: false,
    });
  });

  it('validates with the conditioner rules even without the IPC schema', () => {
    const dev = createDevConditioner({ logger: silentLogger });
    expect(() => dev.set({ latencyMs: Number.NaN })).toThrow(expect.objectContaining({ code: 'invalid-argument' }));
    expect(() => dev.set({ reorder: 1 } as never)).toThrow(/Not a simulated network setting: reorder/);
    expect(dev.view()).toEqual({ profile: null, active: false });
    expect(dev.summary()).toBeNull();
  });
});
