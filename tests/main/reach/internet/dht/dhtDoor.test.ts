import { randomBytes } from 'node:crypto';
import type { DhtStream } from 'hyperdht';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../../../main/base/logger';
import { systemScheduler } from '../../../../../main/base/scheduler';
import { createSocketMux } from '../../../../../main/net/ice';
import { DirectJoinError, joinSealedDoor } from '../../../../../main/reach/internet/direct/directJoin';
import { PointToPointSocket } from '../../../../../main/net/ice';
import { openSealedDoor } from '../../../../../main/reach/internet/direct/directRoom';
import { DirectKind, OFFER_DATAGRAM_BYTES } from '../../../../../main/reach/internet/direct/directWire';
import {
  createDhtConnectGate,
  DHT_CONNECT_BUDGET,
  DHT_CONNECTS_PER_ADDRESS,
  openDhtDoor,
} from '../../../../../main/reach/internet/dht/dhtDoor';
import { connectDhtRoom } from '../../../../../main/reach/internet/dht/dhtJoin';
import { dhtJoinAgreement } from '../../../../../main/reach/internet/internetJoinAgreement';
import { PlayerPath } from '../../../../../shared/lobby/lobbyState';
import { encodeDhtCode, readInternetCode, type DhtCode } from '../../../../../shared/rendezvous';
import { privateDht, type PrivateDht } from '../../../../support/privateDht';
import { waitFor } from '../../../../support/waitFor';

// A DHT room's door on a private DHT on 127.0.0.1: a mux stands for the room's Server (it echoes upper-cased),
// guests join with connectDhtRoom, strangers open raw streams to the room's key and send what they like.
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
const random = (size: number) => new Uint8Array(randomBytes(size));
/** How long a guest's handshake step waits here: a loaded machine answers late, never wrongly. */
const PATIENT_MS = 20_000;

async function echoRoom(
  dht: PrivateDht,
  { silentPathMs, ...door }: { proofWindowMs?: number; maxPending?: number; silentPathMs?: number } = {},
) {
  const dhtDoor = await openDhtDoor({
    dht: await dht.node().get(),
    scheduler: systemScheduler,
    logger: silentLogger,
    ...door,
  });
  const mux = createSocketMux();
  mux.socket.listen({
    message: (datagram, from) =>
      mux.socket.send(Buffer.from(Buffer.from(datagram).toString().toUpperCase()), from.port, from.address),
    sendError: () => undefined,
    error: () => undefined,
  });
  const room = openSealedDoor({
    socket: dhtDoor.socket,
    invite: (secret) => ({
      code: encodeDhtCode(dhtDoor.publicKey, secret),
      context: dhtJoinAgreement({ publicKey: dhtDoor.publicKey, secret }),
    }),
    path: PlayerPath.DHT,
    onPath: { joined: (source) => dhtDoor.proved(source), left: (source) => dhtDoor.release(source) },
    mux,
    scheduler: systemScheduler,
    logger: silentLogger,
    randomBytes: random,
    ...(silentPathMs !== undefined ? { silentPathMs } : {}),
  });
  cleanups.push(
    () => mux.socket.close(),
    () => room.close(),
  );
  const read = readInternetCode(room.code);
  if (!read.ok || read.invite.kind !== 'dht') throw new Error(`not a DHT code: ${room.code}`);
  return { room, door: dhtDoor, code: read.invite.code };
}

/** A guest's sealed path through the DHT: sends `text`, resolves with what comes back. */
async function roundTrip(dht: PrivateDht, code: DhtCode, text: string): Promise<string> {
  const { socket } = await connectDhtRoom(code, {
    dht: await dht.node().get(),
    scheduler: systemScheduler,
    stepTimeoutMs: PATIENT_MS,
    connectTimeoutMs: PATIENT_MS,
  });
  cleanups.push(() => socket.close());
  const reply = new Promise<string>((resolve) =>
    socket.listen({
      message: (datagram) => resolve(Buffer.from(datagram).toString()),
      sendError: () => undefined,
      error: () => undefined,
    }),
  );
  socket.send(Buffer.from(text));
  return reply;
}

/** A stranger's raw stream to the room's key: what arrives on it, and whether the room closed it. */
async function stranger(dht: PrivateDht, publicKey: string) {
  const stream: DhtStream = (await dht.node().get()).connect(Buffer.from(publicKey, 'hex'));
  const arrivals: Buffer[] = [];
  let closed = false;
  stream.on('message', (message) => arrivals.push(Buffer.from(message)));
  stream.on('error', () => undefined);
  stream.on('close', () => (closed = true));
  await new Promise<void>((resolve, reject) => {
    stream.on('open', resolve);
    stream.on('close', () => reject(new Error('closed before it opened')));
  });
  cleanups.push(() => stream.destroy());
  return { stream, arrivals, closed: () => closed, send: (bytes: Uint8Array) => stream.trySend(Buffer.from(bytes)) };
}

/** A stranger who holds the code: proves it over a raw stream (its sealed socket), then does what it likes. */
async function provedStranger(dht: PrivateDht, code: DhtCode) {
  const evil = await stranger(dht, code.publicKey);
  const host = { address: 'dht', port: 1 };
  const link = new PointToPointSocket({
    send: (datagram) => {
      evil.send(datagram);
      return Promise.resolve();
    },
    subscribe: (receive) => {
      evil.stream.on('message', receive);
      return () => evil.stream.off('message', receive);
    },
    local: () => ({ address: '0.0.0.0', port: 0 }),
    remote: () => host,
    close: () => Promise.resolve(evil.stream.destroy()),
  });
  const { socket } = await joinSealedDoor(dhtJoinAgreement(code), host, link, {
    scheduler: systemScheduler,
    stepTimeoutMs: PATIENT_MS,
  });
  cleanups.push(() => socket.close());
  return { evil, socket };
}

describe('a DHT room’s door', () => {
  it('lets a guest holding the code in on a sealed path the room sees as "dht"', async () => {
    const dht = await privateDht(cleanups);
    const { room, door, code } = await echoRoom(dht);
    expect(room.code).toMatch(/^NET-K/);
    expect(await roundTrip(dht, code, 'hello')).toBe('HELLO');
    expect(room.held).toEqual({ pending: 0, paths: 1 });
    expect(door.held).toEqual({ streams: 1, pending: 0 });
  }, 60_000);

  it('refuses a wrong secret as a direct room does: the host could not prove it, nothing is kept', async () => {
    const dht = await privateDht(cleanups);
    const { room, code } = await echoRoom(dht);
    const wrong = { ...code, secret: code.secret === 'K7Q2M9XD4' ? 'K7Q2M9XD5' : 'K7Q2M9XD4' };
    const failure = await connectDhtRoom(wrong, {
      dht: await dht.node().get(),
      scheduler: systemScheduler,
      stepTimeoutMs: PATIENT_MS,
      connectTimeoutMs: PATIENT_MS,
    }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(DirectJoinError);
    expect((failure as DirectJoinError).reason).toBe('mismatch');
    expect(room.held.paths).toBe(0);
  }, 60_000);

  it('closes a stream that sends garbage and never proves the code, and stays joinable', async () => {
    const dht = await privateDht(cleanups);
    const { room, door, code } = await echoRoom(dht, { proofWindowMs: 1500 });
    const evil = await stranger(dht, code.publicKey);
    await waitFor(() => door.held.pending === 1, 10_000, 'the stranger’s stream at the door');
    const kinds = [0, DirectKind.OFFER, DirectKind.CONFIRM, DirectKind.DATA, DirectKind.ANSWER, DirectKind.WELCOME];
    for (let i = 0; i < 300; i += 1) evil.send(Buffer.concat([Buffer.from([kinds[i % 6]!]), random(i % 900)]));
    // Oversized for one datagram of ours, and an offer of the wrong length.
    evil.send(random(1100));
    evil.send(Buffer.concat([Buffer.from([DirectKind.OFFER]), random(OFFER_DATAGRAM_BYTES + 10)]));
    await waitFor(() => evil.closed(), 10_000, 'the stranger’s stream closed after the proof window');
    expect(evil.arrivals).toEqual([]);
    expect(door.held).toEqual({ streams: 0, pending: 0 });
    expect(room.held.paths).toBe(0);
    expect(await roundTrip(dht, code, 'still here')).toBe('STILL HERE');
  }, 60_000);

  it('drops garbage after the proof: the sealed path goes on, and the room holds nothing more', async () => {
    const dht = await privateDht(cleanups);
    const { room, door, code } = await echoRoom(dht);
    const { evil, socket } = await provedStranger(dht, code);
    const replies: string[] = [];
    socket.listen({
      message: (datagram) => replies.push(Buffer.from(datagram).toString()),
      sendError: () => undefined,
      error: () => undefined,
    });
    const kinds = [0, DirectKind.OFFER, DirectKind.CONFIRM, DirectKind.DATA, DirectKind.ANSWER, DirectKind.WELCOME];
    for (let i = 0; i < 300; i += 1) evil.send(Buffer.concat([Buffer.from([kinds[i % 6]!]), random(i % 900)]));
    socket.send(Buffer.from('sealed'));
    await waitFor(() => replies.includes('SEALED'), 10_000, 'the sealed echo after the garbage');
    expect(room.held).toEqual({ pending: 0, paths: 1 });
    expect(door.held).toEqual({ streams: 1, pending: 0 });
    expect(evil.closed()).toBe(false);
  }, 60_000);

  it('lets go of a stream that proves the code and then says nothing sealed, like a direct room', async () => {
    const dht = await privateDht(cleanups);
    const { room, door, code } = await echoRoom(dht, { silentPathMs: 500 });
    const { evil } = await provedStranger(dht, code);
    await waitFor(() => evil.closed(), 10_000, 'the silent stream closed');
    await waitFor(() => room.held.paths === 0 && door.held.streams === 0, 10_000, 'nothing held');
    expect(await roundTrip(dht, code, 'next')).toBe('NEXT');
  }, 60_000);

  it('closes a stream that sends reliable stream data (no part of our protocol), and stays joinable', async () => {
    const dht = await privateDht(cleanups);
    const { door, code } = await echoRoom(dht);
    const evil = await stranger(dht, code.publicKey);
    evil.stream.write(Buffer.from('not our protocol'));
    await waitFor(() => evil.closed(), 10_000, 'the stream-data sender closed');
    await waitFor(() => door.held.streams === 0, 10_000, 'the door empty again');
    const { socket } = await connectDhtRoom(code, {
      dht: await dht.node().get(),
      scheduler: systemScheduler,
      stepTimeoutMs: PATIENT_MS,
      connectTimeoutMs: PATIENT_MS,
    });
    cleanups.push(() => socket.close());
    expect(door.held).toEqual({ streams: 1, pending: 0 });
    expect(await roundTrip(dht, code, 'again')).toBe('AGAIN');
  }, 60_000);

  it('holds no more unproven streams than its cap when a stranger opens many: the oldest go', async () => {
    const dht = await privateDht(cleanups);
    const { door, code } = await echoRoom(dht, { maxPending: 3 });
    const strangers: Awaited<ReturnType<typeof stranger>>[] = [];
    for (let i = 0; i < 6; i += 1) strangers.push(await stranger(dht, code.publicKey));
    await waitFor(() => strangers.filter((s) => s.closed()).length === 3, 10_000, 'the three oldest closed');
    expect(strangers.slice(0, 3).every((s) => s.closed())).toBe(true);
    expect(door.held).toEqual({ streams: 3, pending: 3 });
    // A real guest still gets in (one more oldest stranger goes), and its proved stream is not counted as pending.
    expect(await roundTrip(dht, code, 'in')).toBe('IN');
    expect(door.held.pending).toBeLessThanOrEqual(3);
  }, 60_000);
});

describe('the DHT door’s connect gate (the rule its firewall applies)', () => {
  /** A gate on a clock moved by hand, in milliseconds. */
  const gateAt = () => {
    let now = 0;
    return { gate: createDhtConnectGate(() => now), advance: (ms: number) => (now += ms) };
  };
  /** Connects from `address` the gate answers out of `tries`. */
  const admitted = (gate: ReturnType<typeof createDhtConnectGate>, address: string, tries: number) =>
    Array.from({ length: tries }, () => gate.admit(address)).filter(Boolean).length;

  it('answers one address its burst, then one a second: a flood from it leaves the room’s budget to others', () => {
    const { gate, advance } = gateAt();
    expect(admitted(gate, '198.51.100.7', 50)).toBe(DHT_CONNECTS_PER_ADDRESS.burst);
    // A guest elsewhere gets in at once, though the flooder is knocking all the time.
    expect(gate.admit('203.0.113.20')).toBe(true);
    // Twenty seconds of a flood at 50 connects a second: the flooder gets one a second; the room keeps tokens.
    let flooder = 0;
    for (let s = 0; s < 20; s += 1) {
      advance(1000);
      flooder += admitted(gate, '198.51.100.7', 50);
    }
    expect(flooder).toBe(20 * DHT_CONNECTS_PER_ADDRESS.perSecond);
    expect(gate.admit('203.0.113.20')).toBe(true);
    expect(gate.admit('203.0.113.21')).toBe(true);
  });

  it('bounds a flood from many addresses by the room’s budget: its burst, then one per refill', () => {
    const { gate, advance } = gateAt();
    const many = Array.from({ length: 100 }, (_, i) => `198.51.100.${i}`);
    expect(many.filter((address) => gate.admit(address)).length).toBe(DHT_CONNECT_BUDGET.burst);
    expect(gate.admit('203.0.113.20')).toBe(false);
    advance(DHT_CONNECT_BUDGET.refillMs);
    expect(many.filter((address) => gate.admit(address)).length).toBe(1);
  });

  it('gives a proved stream’s token back to the room', () => {
    const { gate } = gateAt();
    const many = Array.from({ length: DHT_CONNECT_BUDGET.burst }, (_, i) => `198.51.100.${i}`);
    expect(many.every((address) => gate.admit(address))).toBe(true);
    expect(gate.admit('203.0.113.20')).toBe(false);
    gate.proved();
    expect(gate.admit('203.0.113.21')).toBe(true);
  });
});
