import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../../main/base/logger';
import { systemScheduler, type Scheduler } from '../../../../main/base/scheduler';
import { createSocketMux, type SocketMux } from '../../../../main/net/ice';
import { openUdpDatagramSocket, type DatagramSocket, type DatagramSource } from '../../../../main/net/index';
import { DEFAULT_RECV_BUFFER } from '../../../../main/net/endpoint/udpSocket';
import { startGuestAgreement } from '../../../../main/net/secure';
import { connectDirectRoom, DirectJoinError } from '../../../../main/reach/internet/direct/directJoin';
import { openDirectRoom } from '../../../../main/reach/internet/direct/directRoom';
import {
  CONFIRM_TAG_BYTES,
  directDatagram,
  DirectKind,
  offerDatagram,
  OFFER_DATAGRAM_BYTES,
  parseDirectDatagram,
} from '../../../../main/reach/internet/direct/directWire';
import { directJoinAgreement } from '../../../../main/reach/internet/internetJoinAgreement';
import { PlayerPath } from '../../../../shared/lobby/lobbyState';
import { encodeDirectCode, readInternetCode, type DirectCode } from '../../../../shared/rendezvous';
import { ManualScheduler } from '../../../support/manualScheduler';
import { waitFor } from '../../../support/waitFor';

// A direct room on loopback: its own UDP port stands for the router's mapping (127.0.0.1 and that port as the
// "public" address), a mux stands for the room's Server, and guests and strangers are real UDP sockets.
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
const random = (size: number) => new Uint8Array(randomBytes(size));
/** How long a guest's handshake step waits here: a loaded machine answers late, never wrongly. */
const PATIENT_MS = 20_000;

const udp = async (): Promise<DatagramSocket> => {
  const socket = await openUdpDatagramSocket({ port: 0, host: '127.0.0.1', recvBufferSize: 0 });
  cleanups.push(() => socket.close());
  return socket;
};

/** A direct room whose Server echoes every datagram back, upper-cased, to where it came from. */
async function echoRoom(
  options: { joinBudget?: { burst: number; refillMs: number }; silentPathMs?: number; scheduler?: Scheduler } = {},
) {
  const socket = await openUdpDatagramSocket({ port: 0, host: '127.0.0.1', recvBufferSize: DEFAULT_RECV_BUFFER });
  const mux: SocketMux = createSocketMux();
  const heard: Array<{ text: string; from: DatagramSource }> = [];
  mux.socket.listen({
    message: (datagram, from) => {
      const text = Buffer.from(datagram).toString();
      heard.push({ text, from: { ...from } });
      mux.socket.send(Buffer.from(text.toUpperCase()), from.port, from.address);
    },
    sendError: () => undefined,
    error: () => undefined,
  });
  const room = openDirectRoom({
    socket,
    publicAddress: '127.0.0.1',
    publicPort: socket.port,
    mux,
    scheduler: systemScheduler,
    logger: silentLogger,
    randomBytes: random,
    ...options,
  });
  cleanups.push(
    () => mux.socket.close(),
    () => room.close(),
  );
  const parsed = readInternetCode(room.code);
  if (!parsed.ok || parsed.invite.kind !== 'direct') throw new Error(`not a direct code: ${room.code}`);
  return { room, mux, heard, code: parsed.invite.code, port: socket.port };
}

/** A guest's sealed path: sends `text`, resolves with what comes back. */
async function roundTrip(code: DirectCode, text: string): Promise<string> {
  const { socket } = await connectDirectRoom(code, {
    scheduler: systemScheduler,
    bindAddress: '127.0.0.1',
    stepTimeoutMs: PATIENT_MS,
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

/** Sends raw datagrams from a stranger's socket and returns what comes back, one at a time. */
async function stranger(port: number) {
  const socket = await udp();
  const arrivals: Buffer[] = [];
  socket.listen({
    message: (datagram) => arrivals.push(Buffer.from(datagram)),
    sendError: () => undefined,
    error: () => undefined,
  });
  return { socket, arrivals, send: (datagram: Uint8Array) => socket.send(datagram, port, '127.0.0.1') };
}

/** A well-formed offer for the room's secret (or another), so the host answers it. */
const offerFor = (code: DirectCode) => offerDatagram(startGuestAgreement(directJoinAgreement(code), random).offer);

describe('a direct room', () => {
  it('lets a guest holding the code in on a sealed path the room sees as "router"', async () => {
    const { room, heard, code } = await echoRoom();
    expect(room.code).toMatch(/^NET-D/);
    expect(await roundTrip(code, 'hello')).toBe('HELLO');
    const label = heard[0]!.from;
    expect(room.pathOf(label)).toBe(PlayerPath.ROUTER);
    expect(room.sourceOf(label)).toBe('127.0.0.1');
    expect(room.pathOf({ address: '127.0.0.1', port: 1 })).toBeUndefined();
    expect(room.held).toEqual({ pending: 0, paths: 1 });
    await room.release(label);
    expect(room.held).toEqual({ pending: 0, paths: 0 });
  });

  it('refuses a wrong secret before anything is sealed: the guest hears the host could not prove it', async () => {
    const { room, code } = await echoRoom();
    const wrong = readInternetCode(
      encodeDirectCode(code.address, code.port, code.secret === 'K7Q2M9XD4' ? 'K7Q2M9XD5' : 'K7Q2M9XD4'),
    );
    if (!wrong.ok || wrong.invite.kind !== 'direct') throw new Error('not a direct code');
    const failure = await connectDirectRoom(wrong.invite.code, {
      scheduler: systemScheduler,
      bindAddress: '127.0.0.1',
      stepTimeoutMs: PATIENT_MS,
    }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(DirectJoinError);
    expect((failure as DirectJoinError).reason).toBe('mismatch');
    // Only the budgeted agreement waits (it expires); no path.
    expect(room.held.paths).toBe(0);
    expect(room.held.pending).toBeLessThanOrEqual(1);
  });

  it('keeps nothing for garbage, truncated handshakes, stray confirmations and replays, and stays joinable', async () => {
    const { room, code, port } = await echoRoom();
    const evil = await stranger(port);
    // A probe the host answers alike each time it comes again (a retransmission costs nothing): sent after each
    // batch, its answer says the host has read everything before it, whatever the machine's load.
    const probe = offerFor(code);
    let answered = 0;
    const sync = async () => {
      evil.send(probe);
      answered += 1;
      await waitFor(() => evil.arrivals.length === answered, 5000, 'the answer to the probe');
    };
    await sync();
    for (let batch = 0; batch < 20; batch += 1) {
      for (let i = batch * 100; i < (batch + 1) * 100; i += 1) {
        const kinds = [0, DirectKind.OFFER, DirectKind.CONFIRM, DirectKind.DATA, DirectKind.ANSWER, DirectKind.WELCOME];
        evil.send(Buffer.concat([Buffer.from([kinds[i % 6]!]), random(i % 300)]));
      }
      await sync();
    }
    // Truncated: an offer cut short, a confirmation of the wrong length, an empty datagram.
    evil.send(offerFor(code).subarray(0, OFFER_DATAGRAM_BYTES - 1));
    evil.send(directDatagram(DirectKind.CONFIRM, random(CONFIRM_TAG_BYTES - 1)));
    evil.send(new Uint8Array(0));
    await sync();
    expect(new Set(evil.arrivals.map((a) => a.toString('hex'))).size).toBe(1);
    // A full-length confirmation with no agreement behind it spends the probe's agreement, and that is all.
    evil.send(directDatagram(DirectKind.CONFIRM, random(CONFIRM_TAG_BYTES)));
    evil.send(offerFor(code));
    await waitFor(() => evil.arrivals.length === answered + 1, 5000, 'the answer to a fresh offer');
    expect(room.held).toEqual({ pending: 1, paths: 0 });
    // The answer is never larger than what asked for it.
    expect(evil.arrivals.every((a) => a.length <= OFFER_DATAGRAM_BYTES)).toBe(true);
    // A real guest still gets in; its datagrams replayed from the stranger's address reach nothing.
    expect(await roundTrip(code, 'still here')).toBe('STILL HERE');
    expect(room.held.paths).toBe(1);
  });

  it('answers a retransmitted offer alike and a replayed confirmation from elsewhere not at all', async () => {
    const { room, code, port } = await echoRoom();
    const guest = await stranger(port);
    const agreement = startGuestAgreement(directJoinAgreement(code), random);
    const offer = offerDatagram(agreement.offer);
    guest.send(offer);
    await waitFor(() => guest.arrivals.length === 1, 5000, 'the answer');
    guest.send(offer);
    await waitFor(() => guest.arrivals.length === 2, 5000, 'the same answer again');
    expect(guest.arrivals[1]!.equals(guest.arrivals[0]!)).toBe(true);
    const answer = parseDirectDatagram(guest.arrivals[0]!);
    if (answer?.kind !== DirectKind.ANSWER) throw new Error('no answer');
    const { confirm } = agreement.finish(answer.answer);
    // The confirmation replayed from another source: there is no agreement for it there.
    const other = await stranger(port);
    other.send(directDatagram(DirectKind.CONFIRM, confirm));
    other.send(offerFor(code));
    await waitFor(() => other.arrivals.length === 1, 5000, 'the probe’s answer');
    expect(other.arrivals[0]![0]).toBe(DirectKind.ANSWER);
    expect(room.held.paths).toBe(0);
    // From the guest's own source it is welcomed, and again (a lost welcome) without a second path.
    guest.send(directDatagram(DirectKind.CONFIRM, confirm));
    await waitFor(() => guest.arrivals.length === 3, 5000, 'the welcome');
    guest.send(directDatagram(DirectKind.CONFIRM, confirm));
    await waitFor(() => guest.arrivals.length === 4, 5000, 'the welcome again');
    expect(guest.arrivals[2]![0]).toBe(DirectKind.WELCOME);
    expect(room.held).toEqual({ pending: 1, paths: 1 });
  });

  it('spends the room-wide budget on a flood of offers, then says busy; a guest joins once it refills', async () => {
    // The room's clock moves only when the test says: the budget refills at no rate the machine's load sets.
    const clock = new ManualScheduler();
    const { room, code, port } = await echoRoom({ joinBudget: { burst: 5, refillMs: 300 }, scheduler: clock });
    const flood = await stranger(port);
    // In batches the host reads before the next comes (a full receive buffer would drop them, not the host).
    for (let batch = 0; batch < 10; batch += 1) {
      for (let i = 0; i < 20; i += 1) flood.send(offerFor(code));
      await waitFor(() => flood.arrivals.length === (batch + 1) * 20, 10_000, 'an answer or a busy for each offer');
    }
    expect(flood.arrivals.filter((a) => a[0] === DirectKind.ANSWER)).toHaveLength(5);
    const busy = flood.arrivals.filter((a) => a[0] === DirectKind.BUSY);
    expect(busy).toHaveLength(195);
    expect(parseDirectDatagram(busy[0]!)).toEqual({ kind: DirectKind.BUSY, waitMs: 300 });
    // One source holds one agreement at most, however many it asks for.
    expect(room.held).toEqual({ pending: 1, paths: 0 });
    const refused = await connectDirectRoom(code, {
      scheduler: systemScheduler,
      bindAddress: '127.0.0.1',
      stepTimeoutMs: PATIENT_MS,
    }).catch((error: unknown) => error);
    // retryShortWaits waited the real 300 ms thrice; the room's clock never moved, so it stays busy.
    expect(refused).toMatchObject({ reason: 'busy', waitMs: 300 });
    clock.advance(300);
    expect(await roundTrip(code, 'after the flood')).toBe('AFTER THE FLOOD');
  });

  it('lets go of a path that proves the code and then says nothing', async () => {
    const { room, code, port } = await echoRoom({ silentPathMs: 200 });
    const guest = await stranger(port);
    const agreement = startGuestAgreement(directJoinAgreement(code), random);
    guest.send(offerDatagram(agreement.offer));
    await waitFor(() => guest.arrivals.length === 1, 5000, 'the answer');
    const answer = parseDirectDatagram(guest.arrivals[0]!);
    if (answer?.kind !== DirectKind.ANSWER) throw new Error('no answer');
    guest.send(directDatagram(DirectKind.CONFIRM, agreement.finish(answer.answer).confirm));
    await waitFor(() => room.held.paths === 1, 5000, 'the path');
    await waitFor(() => room.held.paths === 0, 5000, 'the silent path let go');
  });
});
