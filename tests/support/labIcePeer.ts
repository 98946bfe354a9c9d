/**
 * One end of an internet path, run inside a NAT-lab namespace (`ip netns exec NS node --import tsx …`):
 * an ICE session + secure socket with a real Server (host, through a socket mux) or Client (guest) of ours on
 * top. Bundled by the test (esbuild) so each process starts fast. Speaks JSON lines: commands on stdin, events on stdout (the parent swaps the offers, as the rendezvous
 * would). Bounded: every wait has a deadline, and the process exits when stdin closes.
 */
import { createInterface } from 'node:readline';
import { Channel, Client, Server, type DatagramHandlers, type DatagramSocket } from '../../main/net';
import { createIceSession, createSocketMux, IceConnectError, type IceSession } from '../../main/net/ice';
import { recvWindowFor } from '../../main/net/native/negotiation';
import { createKeyPair, secureSocket, type SecureTranscript } from '../../main/net/secure';
import { systemScheduler } from '../../main/base/scheduler';
import { delayedSend, type DelayedSend } from './delayedSend';

/** Commands from the parent. */
export type LabPeerCommand =
  | {
      cmd: 'start';
      role: 'host' | 'guest';
      roomId: string;
      stun?: { host: string; port: number };
      turn?: { host: string; port: number; username: string; password: string };
      connectTimeoutSeconds: number;
      /** One-way delay on everything this end sends over the path once connected (its home uplink), ms. */
      uplinkMs?: number;
    }
  | { cmd: 'answer'; ice: unknown; publicKey: string; ufrag: string }
  | { cmd: 'traffic'; messages: number }
  | { cmd: 'measure'; pings: number; bulkMessages: number; bulkBytes: number };

/** Events to the parent. */
export type LabPeerEvent =
  | { ev: 'offer'; ice: unknown; publicKey: string; ufrag: string; gatherMs: number }
  | {
      ev: 'path';
      path: { kind: string; localType: string; remoteType: string; setupMs: number };
      /** The address this end sends to (a relay's, when it sends to the peer's relay candidate). */
      remoteAddress: string;
    }
  | { ev: 'failed'; failure: string; message: string }
  | { ev: 'connected' }
  | { ev: 'traffic'; received: number; duplicates: number; outOfOrder: number; echoed: number }
  | { ev: 'measured'; figures: LabFigures }
  | { ev: 'error'; message: string };

/** What the guest measured over one path (milliseconds, bytes per second). */
export interface LabFigures {
  rawRttMs: number;
  stackRttMs: number;
  rawBytesPerSecond: number;
  stackBytesPerSecond: number;
  /** Raw probes of the throughput run never answered (their slot freed after a second). */
  rawLost: number;
  /** Reliable retransmissions our stack made during its throughput run. */
  stackRetransmits: number;
  /** Bytes in flight both throughput runs allow: the stack's flight budget (the receive window it is given). */
  windowBytes: number;
}

const RAW = 0xff; // first byte of a raw probe; a sealed datagram starts with its counter's top byte, 0

const emit = (event: LabPeerEvent) => process.stdout.write(`${JSON.stringify(event)}\n`);
const now = () => performance.now();
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

let session: IceSession | undefined;
let role: 'host' | 'guest' = 'guest';
let roomId = '';
const keys = createKeyPair();
let ownUfrag = '';
let server: Server | undefined;
let client: Client | undefined;
let rawProbe: ((datagram: Uint8Array) => void) | undefined;
let uplinkMs = 0;
/** Every send onto the path, stack and raw probes alike, goes through the uplink's delay. */
let uplink: DelayedSend | undefined;
/** The receive window the stack advertises over this socket, hence the flight budget of the peer's sends. */
let windowBytes = 0;

/** The ICE socket split by first byte: raw probes to the measurement, everything else to the secure socket. */
function splitSocket(ice: DatagramSocket): DatagramSocket {
  let upper: DatagramHandlers | undefined;
  const out = delayedSend((datagram) => ice.send(datagram), uplinkMs, systemScheduler);
  uplink = out;
  ice.listen({
    message: (datagram, from) => {
      if (datagram[0] === RAW) {
        // The host answers a probe with its first 5 bytes (tag, sequence): the measured load is one way.
        if (role === 'host') out.send(datagram.subarray(0, 5));
        else rawProbe?.(datagram);
      } else upper?.message(datagram, from);
    },
    sendError: (error) => upper?.sendError(error),
    error: (error) => upper?.error(error),
  });
  return {
    get address() {
      return ice.address;
    },
    get port() {
      return ice.port;
    },
    recvBufferSize: ice.recvBufferSize,
    sendBufferSize: ice.sendBufferSize,
    // A point-to-point socket: the port and address of a send are ignored, so the delayed send drops them.
    send: (datagram) => out.send(datagram),
    listen: (handlers) => (upper = handlers),
    connect: (port, host) => ice.connect(port, host),
    close: () => {
      out.close();
      return ice.close();
    },
  };
}

async function start(command: Extract<LabPeerCommand, { cmd: 'start' }>): Promise<void> {
  role = command.role;
  roomId = command.roomId;
  uplinkMs = command.uplinkMs ?? 0;
  session = createIceSession({
    controlling: role === 'host',
    stun: command.stun,
    turn: command.turn,
    connectTimeoutSeconds: command.connectTimeoutSeconds,
  });
  const began = now();
  const ice = await session.gather();
  ownUfrag = ice.usernameFragment;
  emit({ ev: 'offer', ice, publicKey: keys.publicKey, ufrag: ownUfrag, gatherMs: now() - began });
}

async function answer(command: Extract<LabPeerCommand, { cmd: 'answer' }>): Promise<void> {
  if (!session) throw new Error('answer before start');
  let path;
  try {
    path = await session.connect(command.ice);
  } catch (error) {
    const failure = error instanceof IceConnectError ? error.failure : 'other';
    emit({ ev: 'failed', failure, message: (error as Error).message });
    return;
  }
  // A point-to-point socket's connect only names its one peer (the arguments are ignored).
  const remote = await session.socket.connect(0, '0.0.0.0');
  emit({ ev: 'path', path, remoteAddress: remote.address });
  const transcript: SecureTranscript =
    role === 'host'
      ? {
          roomId,
          hostPublicKey: keys.publicKey,
          guestPublicKey: command.publicKey,
          hostUfrag: ownUfrag,
          guestUfrag: command.ufrag,
        }
      : {
          roomId,
          hostPublicKey: command.publicKey,
          guestPublicKey: keys.publicKey,
          hostUfrag: command.ufrag,
          guestUfrag: ownUfrag,
        };
  windowBytes = recvWindowFor(session.socket.recvBufferSize);
  const secure = secureSocket(splitSocket(session.socket), {
    ownPrivate: keys.privateKey,
    peerPublic: command.publicKey,
    transcript,
    role,
  });
  if (role === 'host') {
    const mux = createSocketMux();
    server = await Server.listen({ port: 0, openSocket: async () => mux.socket, timeout: 10 });
    mux.add(secure);
    const seen = new Set<number>();
    let duplicates = 0;
    let outOfOrder = 0;
    let last = -1;
    server.onMessage('n', (peer, message) => {
      const payload = message as { i: number };
      if (seen.has(payload.i)) duplicates += 1;
      seen.add(payload.i);
      if (payload.i !== last + 1) outOfOrder += 1;
      last = payload.i;
      server!.sendTo(peer.id, 'echo', { i: payload.i }, Channel.RELIABLE_ORDERED);
    });
    server.onMessage('report', (peer) => {
      emit({ ev: 'traffic', received: seen.size, duplicates, outOfOrder, echoed: seen.size });
      server!.sendTo(peer.id, 'reported', {}, Channel.RELIABLE_ORDERED);
    });
    server.onMessage(
      'ping',
      (peer, payload) => void server!.sendTo(peer.id, 'pong', payload, Channel.RELIABLE_ORDERED),
    );
    let bulk = 0;
    server.onMessage('bulk', (peer, payload) => {
      bulk += 1;
      if (payload.last) server!.sendTo(peer.id, 'bulked', { count: bulk }, Channel.RELIABLE_ORDERED);
    });
    server.onConnect(() => emit({ ev: 'connected' }));
    // A link that drops is said at once: the parent's wait for a figure would otherwise only time out.
    server.onDisconnect((_peer, reason) => emit({ ev: 'error', message: `the guest's link dropped: ${reason}` }));
  } else {
    client = new Client({ openSocket: async () => secure, timeout: 10 });
    await client.connect('ice', 1, { timeout: 10 });
    client.onDisconnect((reason) => emit({ ev: 'error', message: `the link to the host dropped: ${reason}` }));
    emit({ ev: 'connected' });
  }
}

/** Guest: `messages` reliable messages to the host, each echoed; reports what came back. */
async function traffic(messages: number): Promise<void> {
  const c = client!;
  const echoes = new Set<number>();
  let duplicates = 0;
  let outOfOrder = 0;
  let last = -1;
  c.onMessage('echo', (message) => {
    const payload = message as { i: number };
    if (echoes.has(payload.i)) duplicates += 1;
    echoes.add(payload.i);
    if (payload.i !== last + 1) outOfOrder += 1;
    last = payload.i;
  });
  for (let i = 0; i < messages; i++) c.send('n', { i }, Channel.RELIABLE_ORDERED);
  await until(() => echoes.size >= messages, 20_000, 'every echo');
  const reported = new Promise<void>((resolve) => c.onMessage('reported', () => resolve()));
  c.send('report', {}, Channel.RELIABLE_ORDERED);
  await reported;
  emit({ ev: 'traffic', received: echoes.size, duplicates, outOfOrder, echoed: echoes.size });
}

/** Guest: RTT and throughput over this path, raw (bare datagrams on the ICE socket) and through our stack. */
async function measure(command: Extract<LabPeerCommand, { cmd: 'measure' }>): Promise<void> {
  const c = client!;
  const ice = uplink!;
  // Raw RTT: one probe in flight at a time, echoed by the host's splitter.
  const rawRtts: number[] = [];
  for (let i = 0; i < command.pings; i++) {
    const probe = Buffer.alloc(64);
    probe[0] = RAW;
    probe.writeUInt32BE(i, 1);
    const sent = now();
    const back = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), 500);
      rawProbe = (datagram) => {
        if (Buffer.from(datagram).readUInt32BE(1) !== i) return;
        clearTimeout(timer);
        resolve(true);
      };
      ice.send(probe);
    });
    if (back) rawRtts.push(now() - sent);
  }
  // Stack RTT: one reliable ping at a time, answered by a reliable pong.
  const stackRtts: number[] = [];
  for (let i = 0; i < command.pings; i++) {
    const sent = now();
    await new Promise<void>((resolve) => {
      const off = c.onMessage('pong', () => {
        off();
        resolve();
      });
      c.send('ping', { t: i }, Channel.RELIABLE_ORDERED);
    });
    stackRtts.push(now() - sent);
  }
  // Raw throughput: the stack's window (its flight budget in bytes) of datagrams in flight, each echoed as an
  // ack; no pacing, as the stack has none. A lost one frees its slot after a second.
  const size = command.bulkBytes;
  const total = command.bulkMessages;
  const window = Math.max(1, Math.floor(windowBytes / size));
  let acked = 0;
  let sentRaw = 0;
  const inFlight = new Map<number, NodeJS.Timeout>();
  const rawStart = now();
  await new Promise<void>((resolve) => {
    const pump = () => {
      while (inFlight.size < window && sentRaw < total) {
        const seq = sentRaw++;
        const probe = Buffer.alloc(size);
        probe[0] = RAW;
        probe.writeUInt32BE(seq, 1);
        inFlight.set(
          seq,
          setTimeout(() => {
            inFlight.delete(seq);
            pump();
          }, 1_000),
        );
        ice.send(probe);
      }
      if (inFlight.size === 0 && sentRaw >= total) resolve();
    };
    rawProbe = (datagram) => {
      const seq = Buffer.from(datagram).readUInt32BE(1);
      const timer = inFlight.get(seq);
      if (!timer) return;
      clearTimeout(timer);
      inFlight.delete(seq);
      acked += 1;
      pump();
    };
    pump();
  });
  const rawBytesPerSecond = (acked * size) / ((now() - rawStart) / 1000);
  // Stack throughput: the same count of messages of the same size, reliable ordered, honouring backpressure.
  const body = 'x'.repeat(Math.max(1, size - 40));
  const retransmitsBefore = c.connectionCounters?.retransmits ?? 0;
  const stackStart = now();
  const done = new Promise<void>((resolve) => c.onMessage('bulked', () => resolve()));
  for (let i = 0; i < total; i++) {
    const more = c.send('bulk', i === total - 1 ? { b: body, last: true } : { b: body }, Channel.RELIABLE_ORDERED);
    if (!more) await new Promise<void>((resolve) => c.onDrain(() => resolve()));
  }
  await done;
  const stackBytesPerSecond = (total * size) / ((now() - stackStart) / 1000);
  emit({
    ev: 'measured',
    figures: {
      rawRttMs: median(rawRtts),
      stackRttMs: median(stackRtts),
      rawBytesPerSecond,
      stackBytesPerSecond,
      rawLost: total - acked,
      stackRetransmits: (c.connectionCounters?.retransmits ?? 0) - retransmitsBefore,
      windowBytes,
    },
  });
}

async function until(condition: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = now() + ms;
  while (!condition()) {
    if (now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function shutdown(): Promise<void> {
  client?.disconnect();
  await server?.close();
  await session?.close();
  process.exit(0);
}

// A lab peer never outlives its test by long, whatever happens to the parent.
setTimeout(() => void shutdown(), 300_000).unref();
const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  const command = JSON.parse(line) as LabPeerCommand;
  const handle = async () => {
    if (command.cmd === 'start') await start(command);
    else if (command.cmd === 'answer') await answer(command);
    else if (command.cmd === 'traffic') await traffic(command.messages);
    else await measure(command);
  };
  handle().catch((error: unknown) => emit({ ev: 'error', message: String((error as Error)?.stack ?? error) }));
});
lines.on('close', () => void shutdown());
