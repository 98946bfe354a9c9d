import { describe, expect, it } from 'vitest';
import { createMemoryNetwork, type DatagramSocket, type DatagramSource } from '../../../../main/net';
import {
  createKeyPair,
  secureSocket,
  SECURE_OVERHEAD,
  type KeyPair,
  type SecureSocket,
  type SecureTranscript,
} from '../../../../main/net/secure';
import { waitFor } from '../../../support/waitFor';

interface Received {
  readonly data: string;
  readonly from: DatagramSource;
}

/** Two memory sockets connected to each other, plus a tap that records what crossed the wire. */
async function pair() {
  const network = createMemoryNetwork();
  const wire: Uint8Array[] = [];
  network.drop = (datagram) => {
    wire.push(Uint8Array.from(datagram));
    return false;
  };
  const a = await network.openSocket({ port: 0, host: '127.0.0.1', recvBufferSize: 0 });
  const b = await network.openSocket({ port: 0, host: '127.0.0.2', recvBufferSize: 0 });
  await a.connect(b.port, '127.0.0.2');
  await b.connect(a.port, '127.0.0.1');
  return { network, a, b, wire };
}

function transcriptFor(host: KeyPair, guest: KeyPair, roomId = 'room-1'): SecureTranscript {
  return {
    roomId,
    hostPublicKey: host.publicKey,
    guestPublicKey: guest.publicKey,
    hostUfrag: 'hUfr',
    guestUfrag: 'gUfr',
  };
}

function record(socket: DatagramSocket): Received[] {
  const got: Received[] = [];
  socket.listen({
    message: (data, from) => got.push({ data: Buffer.from(data).toString(), from: { ...from } }),
    sendError: () => undefined,
    error: () => undefined,
  });
  return got;
}

async function securedPair(transcriptOverride?: Partial<SecureTranscript>) {
  const link = await pair();
  const host = createKeyPair();
  const guest = createKeyPair();
  const transcript = transcriptFor(host, guest);
  const hostSocket = secureSocket(link.a, {
    ownPrivate: host.privateKey,
    peerPublic: guest.publicKey,
    transcript,
    role: 'host',
  });
  const guestSocket = secureSocket(link.b, {
    ownPrivate: guest.privateKey,
    peerPublic: host.publicKey,
    transcript: { ...transcript, ...transcriptOverride },
    role: 'guest',
  });
  return { ...link, host, guest, hostSocket, guestSocket };
}

const send = (socket: DatagramSocket, text: string) => socket.send(Buffer.from(text));

describe('secureSocket', () => {
  it('round trips both ways, with the tag and counter on the wire and no plaintext there', async () => {
    const { hostSocket, guestSocket, wire } = await securedPair();
    const atHost = record(hostSocket);
    const atGuest = record(guestSocket);
    send(hostSocket, 'hello guest');
    send(guestSocket, 'hello host');
    await waitFor(() => atHost.length === 1 && atGuest.length === 1);
    expect(atGuest[0]?.data).toBe('hello guest');
    expect(atHost[0]?.data).toBe('hello host');
    expect(atHost[0]?.from.address).toBe('127.0.0.2');
    expect(wire.map((d) => d.length).sort()).toEqual([10 + SECURE_OVERHEAD, 11 + SECURE_OVERHEAD]);
    for (const d of wire) expect(Buffer.from(d).toString('latin1')).not.toContain('hello');
    expect(hostSocket.counters).toMatchObject({ sealed: 1, opened: 1, forged: 0, replayed: 0 });
  });
});

describe('secureSocket against a hostile wire', () => {
  async function capture(text: string) {
    const s = await securedPair();
    const atGuest = record(s.guestSocket);
    send(s.hostSocket, text);
    await waitFor(() => atGuest.length === 1);
    return { ...s, atGuest, sealed: Uint8Array.from(s.wire[0]!) };
  }

  /** Sends raw bytes on the host's inner socket, under the secure layer. */
  const inject = (inner: DatagramSocket, bytes: Uint8Array) => inner.send(Uint8Array.from(bytes));

  it('drops every single-byte tamper of a sealed datagram, then still takes the genuine one', async () => {
    const s = await securedPair();
    const held: Uint8Array[] = [];
    const sealer = secureSocket({ ...captureOnly(held), address: '127.0.0.1', port: 1 } as DatagramSocket, {
      ownPrivate: s.host.privateKey,
      peerPublic: s.guest.publicKey,
      transcript: transcriptFor(s.host, s.guest),
      role: 'host',
    });
    sealer.send(Buffer.from('tamper me'));
    const sealed = held[0]!;
    const atGuest = record(s.guestSocket);
    for (let i = 0; i < sealed.length; i++) {
      const bad = Uint8Array.from(sealed);
      bad[i]! ^= 0x01;
      inject(s.a, bad);
    }
    await waitFor(() => s.guestSocket.counters.forged + s.guestSocket.counters.replayed === sealed.length);
    expect(atGuest).toHaveLength(0);
    // Every flip fails authentication, except the top counter byte's, which leaves the counter range first.
    expect(s.guestSocket.counters).toMatchObject({ forged: sealed.length - 1, replayed: 1, opened: 0 });
    inject(s.a, sealed);
    await waitFor(() => atGuest.length === 1);
    expect(atGuest[0]?.data).toBe('tamper me');
  });

  it('drops a replay of a datagram already delivered, and datagrams too short to carry a tag', async () => {
    const { a, atGuest, guestSocket, sealed } = await capture('once only');
    inject(a, sealed);
    inject(a, sealed);
    inject(a, new Uint8Array(SECURE_OVERHEAD - 1));
    await waitFor(() => guestSocket.counters.replayed === 2 && guestSocket.counters.malformed === 1);
    expect(atGuest.map((r) => r.data)).toEqual(['once only']);
  });

  it('delivers datagrams reordered within the window once each, and refuses what fell behind it', async () => {
    const s = await securedPair();
    const inner = s.a;
    // Hold the host's sealed datagrams back and replay them in a scrambled order.
    const held: Uint8Array[] = [];
    const sealer = secureSocket({ ...captureOnly(held), address: '127.0.0.1', port: 1 } as DatagramSocket, {
      ownPrivate: s.host.privateKey,
      peerPublic: s.guest.publicKey,
      transcript: transcriptFor(s.host, s.guest),
      role: 'host',
    });
    for (let i = 0; i < 1100; i++) sealer.send(Buffer.from(`m${i}`));
    const atGuest = record(s.guestSocket);
    const order = [5, 3, 4, 0, 2, 1, 1099, 6, 1099, 75, 76];
    for (const i of order) inject(inner, held[i]!);
    await waitFor(() => s.guestSocket.counters.opened + s.guestSocket.counters.replayed === order.length);
    // 0–5 are new when they come; 1099 slides the 1024-wide window to 76–1099, so 6 and 75 are too old.
    expect(atGuest.map((r) => r.data)).toEqual(['m5', 'm3', 'm4', 'm0', 'm2', 'm1', 'm1099', 'm76']);
    expect(s.guestSocket.counters.replayed).toBe(3);
  });

  it('a peer with another key, or another transcript (room, ufrag), authenticates nothing', async () => {
    const wrongRoom = await securedPair({ roomId: 'room-2' });
    const wrongUfrag = await securedPair({ hostUfrag: 'xxxx' });
    for (const s of [wrongRoom, wrongUfrag]) {
      const atGuest = record(s.guestSocket);
      send(s.hostSocket, 'secret');
      await waitFor(() => s.guestSocket.counters.forged === 1);
      expect(atGuest).toHaveLength(0);
    }
    const s = await securedPair();
    const mallory = createKeyPair();
    const atGuest = record(s.guestSocket);
    // Mallory knows both public keys and the transcript, not a private key.
    const forger = secureSocket(s.a, {
      ownPrivate: mallory.privateKey,
      peerPublic: s.guest.publicKey,
      transcript: { ...transcriptFor(s.host, s.guest), hostPublicKey: mallory.publicKey },
      role: 'host',
    });
    send(forger, 'let me in');
    await waitFor(() => s.guestSocket.counters.forged === 1);
    expect(atGuest).toHaveLength(0);
  });

  it('refuses to start with keys that do not sit in the transcript, or a malformed peer key', () => {
    const host = createKeyPair();
    const guest = createKeyPair();
    const other = createKeyPair();
    const transcript = transcriptFor(host, guest);
    const inner = captureOnly([]) as unknown as DatagramSocket;
    expect(() =>
      secureSocket(inner, { ownPrivate: other.privateKey, peerPublic: guest.publicKey, transcript, role: 'host' }),
    ).toThrow(/not our own public key/);
    expect(() =>
      secureSocket(inner, { ownPrivate: host.privateKey, peerPublic: other.publicKey, transcript, role: 'host' }),
    ).toThrow(/peer key/);
    expect(() =>
      secureSocket(inner, {
        ownPrivate: host.privateKey,
        peerPublic: 'not-a-key',
        transcript: { ...transcript, guestPublicKey: 'not-a-key' },
        role: 'host',
      }),
    ).toThrow(/X25519 public key/);
  });
});

/** A socket stand-in that only keeps what is sent through it. */
function captureOnly(into: Uint8Array[]): Partial<SecureSocket> {
  return {
    recvBufferSize: 0,
    sendBufferSize: 0,
    send: (datagram: Uint8Array) => {
      into.push(Uint8Array.from(datagram));
      return true;
    },
    listen: () => undefined,
    close: async () => undefined,
  };
}
