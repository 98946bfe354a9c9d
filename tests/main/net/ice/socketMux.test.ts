import { afterEach, describe, expect, it } from 'vitest';
import { Channel, Client, createMemoryNetwork, Server, type DatagramSocket } from '../../../../main/net';
import { createSocketMux } from '../../../../main/net/ice';
import { createKeyPair, secureSocket, type SecureSocket } from '../../../../main/net/secure';
import { waitFor } from '../../../support/waitFor';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** One guest's path as an ICE session would give it: two connected memory sockets, secured both ends. */
async function securedLink(
  index: number,
): Promise<{ hostSide: SecureSocket; guestSide: SecureSocket; hostPort: number }> {
  const network = createMemoryNetwork();
  const a = await network.openSocket({ port: 0, host: '127.0.0.1', recvBufferSize: 0 });
  const b = await network.openSocket({ port: 0, host: `127.0.0.${index + 2}`, recvBufferSize: 0 });
  await a.connect(b.port, b.address);
  const host = createKeyPair();
  const guest = createKeyPair();
  const transcript = {
    roomId: 'mux',
    hostPublicKey: host.publicKey,
    guestPublicKey: guest.publicKey,
    hostUfrag: 'host',
    guestUfrag: `gst${index}`,
  };
  return {
    hostPort: a.port,
    hostSide: secureSocket(a, { ownPrivate: host.privateKey, peerPublic: guest.publicKey, transcript, role: 'host' }),
    guestSide: secureSocket(b, { ownPrivate: guest.privateKey, peerPublic: host.publicKey, transcript, role: 'guest' }),
  };
}

describe('createSocketMux', () => {
  it('serves several guests from one Server (native), each under its own synthetic address', async () => {
    const mux = createSocketMux();
    const server = await Server.listen({ port: 0, openSocket: async () => mux.socket });
    cleanups.push(() => server.close());
    const got = new Map<string, number[]>();
    server.onMessage('n', (peer, payload) => {
      const list = got.get(peer.address) ?? [];
      list.push(payload.i as number);
      got.set(peer.address, list);
      server.sendTo(peer.id, 'echo', payload, Channel.RELIABLE_ORDERED);
    });
    const clients: Client[] = [];
    const echoes: number[][] = [];
    const sources = [];
    for (let g = 0; g < 3; g++) {
      const { hostSide, guestSide, hostPort } = await securedLink(g);
      sources.push(mux.add(hostSide));
      const client = new Client({ openSocket: async () => guestSide });
      cleanups.push(() => client.disconnect());
      const mine: number[] = [];
      client.onMessage('echo', (payload) => mine.push(payload.i as number));
      // The memory socket resolves the target (an ICE socket ignores it: its peer is fixed).
      await client.connect('127.0.0.1', hostPort);
      expect(client.protocol).toBe('native');
      clients.push(client);
      echoes.push(mine);
    }
    expect(sources.map((s) => `${s.address}:${s.port}`)).toEqual(['100.64.0.1:1', '100.64.0.2:1', '100.64.0.3:1']);
    expect(mux.size).toBe(3);
    clients.forEach((client, g) => {
      for (let i = 0; i < 100; i++) client.send('n', { i: g * 1000 + i }, Channel.RELIABLE_ORDERED);
    });
    await waitFor(() => echoes.every((list) => list.length === 100), 5000, 'every echo');
    echoes.forEach((list, g) => expect(list).toEqual(Array.from({ length: 100 }, (_, i) => g * 1000 + i)));
    expect([...got.keys()].sort()).toEqual(sources.map((s) => s.address));
    expect(
      server
        .getPeers()
        .map((p) => p.address)
        .sort(),
    ).toEqual(sources.map((s) => s.address));
  });

  it('loses (and reports) sends to an address no guest has; a removed guest hears nothing more', async () => {
    const mux = createSocketMux();
    const errors: Error[] = [];
    const heard: string[] = [];
    mux.socket.listen({
      message: (_d, from) => heard.push(from.address),
      sendError: (e) => errors.push(e),
      error: () => undefined,
    });
    const { hostSide, guestSide, hostPort } = await securedLink(0);
    const source = mux.add(hostSide);
    const atGuest: string[] = [];
    guestSide.listen({
      message: (d) => atGuest.push(Buffer.from(d).toString()),
      sendError: () => undefined,
      error: () => undefined,
    });
    await guestSide.connect(hostPort, '127.0.0.1');
    expect(mux.socket.send(Buffer.from('to nobody'), 1, '100.64.9.9')).toBe(true);
    expect(mux.socket.send(Buffer.from('to guest'), source.port, source.address)).toBe(true);
    guestSide.send(Buffer.from('to host'));
    await waitFor(() => errors.length === 1 && atGuest.length === 1 && heard.length === 1);
    expect(errors[0]?.message).toMatch(/no guest at 100\.64\.9\.9:1/);
    expect(atGuest).toEqual(['to guest']);
    expect(heard).toEqual([source.address]);
    await mux.remove(source);
    expect(mux.size).toBe(0);
    mux.socket.send(Buffer.from('gone'), source.port, source.address);
    await waitFor(() => errors.length === 2);
    expect(atGuest).toEqual(['to guest']);
    await expect(mux.socket.connect(1, 'x')).rejects.toThrow(/cannot connect to one/);
    await mux.socket.close();
    expect(() => mux.add(hostSide as DatagramSocket)).toThrow(/closed/);
  });

  it('guests from one ICE origin share a synthetic address on their own ports; other origins get their own', async () => {
    const mux = createSocketMux();
    const links = await Promise.all([0, 1, 2].map((i) => securedLink(i)));
    const a = mux.add(links[0]!.hostSide, '198.51.100.7');
    const b = mux.add(links[1]!.hostSide, '198.51.100.7');
    const c = mux.add(links[2]!.hostSide, '203.0.113.9');
    expect(b.address).toBe(a.address);
    expect(new Set([a.port, b.port]).size).toBe(2);
    expect(Math.max(a.port, b.port)).toBeLessThan(1024);
    expect(c.address).not.toBe(a.address);
    expect(mux.size).toBe(3);
    await mux.socket.close();
  });

  it('an origin keeps its address past 1,023 joins: freed ports come round again, live ones never', async () => {
    const mux = createSocketMux();
    const network = createMemoryNetwork();
    const socket = () => network.openSocket({ port: 0, host: '127.0.0.1', recvBufferSize: 0 });
    const origin = '198.51.100.7';
    const first = mux.add(await socket(), origin);
    const sources = [first];
    // 1,100 joins, one after another: each leaves before the next (the first stays the whole time).
    for (let i = 0; i < 1100; i += 1) {
      const source = mux.add(await socket(), origin);
      expect(source.address).toBe(first.address);
      expect(source.port).not.toBe(first.port);
      expect(source.port).toBeGreaterThanOrEqual(1);
      expect(source.port).toBeLessThan(1024);
      sources.push(source);
      await mux.remove(source);
    }
    expect(new Set(sources.map((s) => s.port)).size).toBe(1023);
    // All 1,023 ports live: only then does the origin get a second address.
    const live = [];
    for (let i = 0; i < 1022; i += 1) live.push(mux.add(await socket(), origin));
    expect(new Set(live.map((s) => s.address))).toEqual(new Set([first.address]));
    expect(mux.add(await socket(), origin).address).not.toBe(first.address);
    expect(mux.size).toBe(1024);
    await mux.socket.close();
  });
});
