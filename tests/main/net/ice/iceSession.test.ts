import { createSocket, type Socket } from 'node:dgram';
import { createServer, type Server, type Socket as NetSocket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createIceSession, type IceSession } from '../../../../main/net/ice';

interface SilentRelay {
  readonly port: number;
  /** Source ports UDP datagrams came from. */
  readonly udpSources: ReadonlySet<number>;
  udpDatagrams(): number;
  tcpConnections(): number;
  close(): Promise<void>;
}

/**
 * A TURN server that never answers, on loopback: a UDP socket that swallows every datagram (so no ICMP error
 * speeds anything up) and a TCP listener on the same port that accepts and stays silent, counting both.
 */
async function silentRelay(): Promise<SilentRelay> {
  const accepted: NetSocket[] = [];
  const tcp: Server = createServer((socket) => {
    connections += 1;
    accepted.push(socket);
    socket.on('error', () => undefined);
    socket.resume();
  });
  let connections = 0;
  await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
  const port = (tcp.address() as { port: number }).port;
  const udp: Socket = createSocket('udp4');
  const udpFrom = new Set<number>();
  let datagrams = 0;
  udp.on('message', (_data, from) => {
    datagrams += 1;
    udpFrom.add(from.port);
  });
  await new Promise<void>((resolve) => udp.bind(port, '127.0.0.1', resolve));
  return {
    port,
    udpSources: udpFrom,
    udpDatagrams: () => datagrams,
    tcpConnections: () => connections,
    close: async () => {
      udp.close();
      for (const socket of accepted) socket.destroy();
      await new Promise<void>((resolve) => tcp.close(() => resolve()));
    },
  };
}

const sessions: IceSession[] = [];
const relays: SilentRelay[] = [];

afterEach(async () => {
  await Promise.all(sessions.splice(0).map((session) => session.close()));
  await Promise.all(relays.splice(0).map((relay) => relay.close()));
});

async function gatherAgainstSilentRelay(turnTransport?: 'udp' | 'udp-then-tcp') {
  const relay = await silentRelay();
  relays.push(relay);
  const session = createIceSession({
    controlling: true,
    turn: { host: '127.0.0.1', port: relay.port, username: 'user', password: 'secret' },
    connectTimeoutSeconds: 5,
    ...(turnTransport ? { turnTransport } : {}),
  });
  sessions.push(session);
  await session.gather();
  return { relay, session };
}

describe('createIceSession with a TURN server that never answers', () => {
  it("turnTransport 'udp': only our probe is sent (no STUN, no werift TURN, no TCP), and relayProblem says so", async () => {
    const { relay, session } = await gatherAgainstSilentRelay('udp');
    expect(session.relayProblem).toMatch(/^TURN relay 127\.0\.0\.1:\d+ did not answer/);
    expect(relay.tcpConnections()).toBe(0);
    // The probe's three Allocates, from its one socket; werift never sent its own.
    expect(relay.udpDatagrams()).toBe(3);
    expect(relay.udpSources.size).toBe(1);
  }, 30_000);
  it("by default (the app's setting) the same: werift never learns of the silent relay, so it never tries TCP", async () => {
    const { relay, session } = await gatherAgainstSilentRelay();
    expect(session.relayProblem).toMatch(/did not answer/);
    expect(relay.tcpConnections()).toBe(0);
    expect(relay.udpSources.size).toBe(1);
  }, 30_000);
  // Not tested here: the opt-in 'udp-then-tcp', where werift sends its own Allocate and STUN, then connects
  // over TCP; the failed TCP allocation's socket is never closed by werift and reconnects whenever the server
  // ends it, so no test can clean up after it.
});

describe('a peer naming loopback, private or link-local candidates', () => {
  async function pair(hostSubnets: () => readonly { cidr: string }[]) {
    const host = createIceSession({
      controlling: true,
      hostAddresses: ['127.0.0.1'],
      connectTimeoutSeconds: 5,
      localSubnets: hostSubnets,
    });
    const guest = createIceSession({
      controlling: false,
      hostAddresses: ['127.0.0.1'],
      connectTimeoutSeconds: 5,
      localSubnets: () => [{ cidr: '127.0.0.1/8' }],
    });
    sessions.push(host, guest);
    const [hostParams, guestParams] = await Promise.all([host.gather(), guest.gather()]);
    // Each side is offered only the other's 127.0.0.1 candidate: every check stays on loopback.
    const loopbackOnly = <T extends { candidates: readonly string[] }>(params: T): T => ({
      ...params,
      candidates: params.candidates.filter((line) => line.includes(' 127.0.0.1 ')),
    });
    return { host, guest, hostParams: loopbackOnly(hostParams), guestParams: loopbackOnly(guestParams) };
  }

  it('gets no check from us when no interface of ours is on that subnet: the connect fails at once, no-candidates', async () => {
    // The guest does not check us (its checks would teach us a peer-reflexive candidate where they came from).
    const { host, guestParams } = await pair(() => []);
    await expect(host.connect(guestParams)).rejects.toMatchObject({ failure: 'no-candidates' });
  });

  it('is checked when one of ours is on it (a guest on our LAN, here our loopback)', async () => {
    const { host, guest, hostParams, guestParams } = await pair(() => [{ cidr: '127.0.0.1/8' }]);
    const [path] = await Promise.all([host.connect(guestParams), guest.connect(hostParams)]);
    expect(path.kind).toBe('direct');
  });
});
