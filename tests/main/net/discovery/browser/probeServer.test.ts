import { afterEach, describe, expect, it } from 'vitest';
import {
  buildReferenceReply,
  buildRichReply,
  parseDiscoveryReply,
  parseDiscoveryRequest,
  probeServer,
} from '../../../../../main/net/discovery';
import { failingSocket, freeUdpPort, openRawPeer, startTestResponder, type RawPeer } from '../loopbackHelpers';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function rawPeer(): Promise<RawPeer> {
  const peer = await openRawPeer({ address: '127.0.0.1' });
  cleanups.push(() => peer.close());
  return peer;
}

/** A peer that answers the n-th query it gets (1-based) with `reply(nonce)`, and ignores the others. */
async function answeringPeer(answerQuery: number, reply: (nonce: number | undefined) => Uint8Array): Promise<RawPeer> {
  const peer = await rawPeer();
  let seen = 0;
  peer.socket.on('message', (bytes, from) => {
    seen += 1;
    const request = parseDiscoveryRequest(bytes);
    if (seen !== answerQuery || request?.kind !== 'lanparty') return;
    peer.socket.send(reply(request.nonce), from.port, from.address);
  });
  return peer;
}

describe('probeServer (one unicast discovery query)', () => {
  it('reads a LAN Party room’s advert: players, capacity, password, round, versions', async () => {
    const handle = await startTestResponder(0, cleanups, {
      bindAddress: '127.0.0.1',
      name: 'Ada’s room',
      gamePort: 9123,
      getPlayerCount: () => 3,
      getExtraInfo: () => ({
        capacity: 8,
        passwordProtected: true,
        inRound: true,
        appVersion: '1.4.0',
        lobbyProtocol: 2,
      }),
    });
    // How many queries it took is not judged: one suffices on an idle loopback, but a reply delayed past the first
    // resend (100 ms) by a busy machine is still a correct answer. The retry itself is proved below, deterministically.
    const result = await probeServer({ host: '127.0.0.1', port: handle.port });
    expect(result).toMatchObject({
      kind: 'answered',
      host: '127.0.0.1',
      advert: {
        name: 'Ada’s room',
        port: 9123,
        playerCount: 3,
        capacity: 8,
        passwordProtected: true,
        inRound: true,
        appVersion: '1.4.0',
        lobbyProtocol: 2,
        instanceId: handle.instanceId,
      },
    });
    if (result.kind === 'answered') {
      console.log(`[probe] loopback answer in ${result.rttMs.toFixed(2)} ms, query ${result.attempts} of 3`);
    }
  });

  it('says "no answer" within its timeout when nothing listens there', async () => {
    const port = await freeUdpPort();
    const started = performance.now();
    const result = await probeServer({ host: '127.0.0.1', port, timeoutMs: 300 });
    const elapsed = performance.now() - started;
    console.log(`[probe] dead loopback address: "${result.kind}" after ${elapsed.toFixed(0)} ms`);
    expect(result).toMatchObject({ kind: 'no-answer', host: '127.0.0.1', attempts: 3 });
    expect(elapsed).toBeLessThan(1000); // generous bound: the design target is 300 ms
  });

  it('retries within the wait, so one lost query or reply does not fail the probe', async () => {
    const peer = await answeringPeer(2, (nonce) =>
      buildRichReply({ name: 'late', port: 9000, playerCount: 1, ...(nonce !== undefined ? { nonce } : {}) }),
    );
    const result = await probeServer({ host: '127.0.0.1', port: peer.port, timeoutMs: 600, attempts: 3 });
    expect(result).toMatchObject({ kind: 'answered', attempts: 2, advert: { name: 'late' } });
  });

  it('accepts the reference server’s three-field reply, which carries no nonce', async () => {
    const peer = await answeringPeer(1, () => buildReferenceReply({ name: 'python', port: 9001, playerCount: 0 }));
    const result = await probeServer({ host: '127.0.0.1', port: peer.port });
    expect(result).toMatchObject({ kind: 'answered', advert: { name: 'python', port: 9001, playerCount: 0 } });
  });

  it('ignores replies echoing another nonce, malformed ones, and ones from another port', async () => {
    const stranger = await rawPeer();
    const peer = await rawPeer();
    peer.socket.on('message', (bytes, from) => {
      const request = parseDiscoveryRequest(bytes);
      const nonce = (((request?.kind === 'lanparty' ? request.nonce : 0) ?? 0) + 1) % 2 ** 32;
      peer.socket.send(
        buildRichReply({ name: 'other query', port: 9000, playerCount: 0, nonce }),
        from.port,
        from.address,
      );
      peer.socket.send('GALEDISC1{"name": 5}', from.port, from.address);
      stranger.socket.send(buildReferenceReply({ name: 'spoof', port: 9000, playerCount: 0 }), from.port, from.address);
    });
    const result = await probeServer({ host: '127.0.0.1', port: peer.port, timeoutMs: 200, attempts: 2 });
    expect(result).toMatchObject({ kind: 'no-answer', attempts: 2 });
  });

  it('reports a send the OS refuses (no route) at once, with its errno', async () => {
    const started = performance.now();
    const result = await probeServer({
      host: '127.0.0.9',
      port: 9998,
      timeoutMs: 5000,
      openSocket: failingSocket('127.0.0.9', 'ENETUNREACH'),
    });
    expect(result).toMatchObject({ kind: 'send-failed', host: '127.0.0.9', failure: { code: 'ENETUNREACH' } });
    expect(performance.now() - started).toBeLessThan(2500); // long before its 5 s wait
  });

  it('reports a socket that cannot bind instead of throwing', async () => {
    const result = await probeServer({ host: '127.0.0.1', port: 9998, bindAddress: '192.0.2.1' });
    expect(result).toMatchObject({ kind: 'send-failed', failure: { code: 'EADDRNOTAVAIL' } });
  });

  it('adds round, lobby and app to the reply compatibly: still within 512 bytes, bad values left out', () => {
    const reply = buildRichReply({
      name: 'n'.repeat(64),
      port: 9000,
      playerCount: 3,
      capacity: 16,
      passwordProtected: true,
      gameName: 'g'.repeat(64),
      instanceId: 'a'.repeat(16),
      nonce: 0xffffffff,
      inRound: false,
      lobbyProtocol: 2,
      appVersion: '10.20.30-beta.4+build.5',
    });
    expect(reply.length).toBeLessThanOrEqual(512);
    // The reference reads name, port and player_count and ignores the rest.
    const json = JSON.parse(new TextDecoder().decode(reply).slice('GALEDISC1'.length)) as Record<string, unknown>;
    expect(json).toMatchObject({ port: 9000, player_count: 3, round: false, lobby: 2, app: '10.20.30-beta.4+build.5' });
    const bad = new TextEncoder().encode(
      'GALEDISC1{"name": "x", "port": 9000, "player_count": 1, "round": "yes", "lobby": -1, "app": 7}',
    );
    const advert = parseDiscoveryReply(bad);
    expect(advert).toEqual({ name: 'x', port: 9000, playerCount: 1 });
  });
});
