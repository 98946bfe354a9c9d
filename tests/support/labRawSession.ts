import { ReservedType } from '../../main/net/v1/protocol';
import { encodeAckFrame, encodeDisconnectFrame, encodeIdFrame } from '../../main/net/native/wire/nativeFrames';
import { Frame, Native } from '../../main/net/native/wire/nativeWire';
import type { KitProtocol } from './endpoints';
import { messageFrame, nativeDatagram, nativePeer, type NativePeer } from './labNativePeer';
import { datagram, rawPeer, type RawPeer } from './labRawPeer';

/** One message a raw session sends with an explicit sequence number. */
export interface RawMessage {
  seq: number;
  type: string;
  payload?: object;
}

/**
 * A hand-driven, connected peer in either protocol, so one abuse scenario can run against both: it says and
 * acknowledges only what the test tells it to.
 */
export interface RawSession {
  readonly protocol: KitProtocol;
  readonly peerId: number;
  readonly token: bigint;
  /** Answer pings (keeps the session from timing out without acknowledging anything else). */
  answerPings: boolean;
  /** Sends whole messages on `channel` (native: packed into as few datagrams as the MTU allows). */
  sendMessages(channel: number, messages: readonly RawMessage[]): void;
  /**
   * Acknowledges on `channel`: v1 names `ack` and, with `all`, the 32 before it; native says every unit below
   * `ack` arrived and, with `all`, sets the whole bitmap (the 1024 units after `ack`).
   */
  sendAck(channel: 1 | 2, ack: number, all: boolean): void;
  /** Sequences of reliable data received on `channel`, in arrival order (native: of MESSAGE and FRAGMENT frames). */
  reliableSequences(channel: 1 | 2): number[];
  /** Whether the other side said goodbye (a disconnect message or frame). */
  saidGoodbye(): boolean;
  /** Sends bytes as they are, from this session's address. */
  sendRaw(data: Uint8Array): void;
  close(): void;
}

/** Connects a raw session of `protocol` from `host` (in 127.0.0.0/8) to a server on 127.0.0.1. */
export async function rawSession(protocol: KitProtocol, serverPort: number, host = '127.0.0.1'): Promise<RawSession> {
  if (protocol === 'v1') {
    const raw = await rawPeer(serverPort, host);
    await raw.handshake();
    return v1Session(raw);
  }
  const raw = await nativePeer(serverPort, host);
  await raw.handshake();
  return nativeSession(raw);
}

function v1Session(raw: RawPeer): RawSession {
  return {
    protocol: 'v1',
    peerId: raw.peerId!,
    token: raw.token,
    get answerPings() {
      return raw.answerPings;
    },
    set answerPings(on: boolean) {
      raw.answerPings = on;
    },
    sendMessages: (channel, messages) => {
      for (const m of messages) raw.send({ channel, sequence: m.seq, type: m.type, payload: m.payload ?? {} });
    },
    sendAck: (channel, ack, all) =>
      raw.send({ channel, ack, ackBitfield: all ? 0xffffffff : 0, type: ReservedType.ACK }),
    reliableSequences: (channel) =>
      raw.received
        .filter((r) => r.header.channel === channel && r.message?.type !== ReservedType.ACK)
        .map((r) => r.header.sequence),
    saidGoodbye: () => raw.received.some((r) => r.message?.type === ReservedType.DISCONNECT),
    sendRaw: (data) => raw.socket.send(data),
    close: () => raw.close(),
  };
}

function nativeSession(raw: NativePeer): RawSession {
  const mtu = raw.accepted!.mtu;
  return {
    protocol: 'native',
    peerId: raw.peerId!,
    token: raw.token,
    get answerPings() {
      return raw.answerPings;
    },
    set answerPings(on: boolean) {
      raw.answerPings = on;
    },
    sendMessages: (channel, messages) => {
      const frames = messages.map((m) => messageFrame(channel, m.seq, m.type, m.payload));
      for (const batch of pack(frames, mtu - Native.HEADER_SIZE - Native.TAG_SIZE)) raw.sendFrames(batch);
    },
    sendAck: (channel, ack, all) =>
      raw.sendFrames([encodeAckFrame(channel, ack, new Uint8Array(all ? Native.MAX_ACK_BITMAP : 0).fill(0xff))]),
    reliableSequences: (channel) =>
      [...raw.framesOf(Frame.MESSAGE), ...raw.framesOf(Frame.FRAGMENT)]
        .filter((f) => f.channel === channel)
        .map((f) => f.seq),
    saidGoodbye: () => raw.framesOf(Frame.DISCONNECT).length > 0,
    sendRaw: (data) => raw.socket.send(data),
    close: () => raw.close(),
  };
}

/** Groups frames, in order, into batches of at most `room` bytes each. */
export function pack(frames: readonly Uint8Array[], room: number): Uint8Array[][] {
  const batches: Uint8Array[][] = [];
  let current: Uint8Array[] = [];
  let size = 0;
  for (const f of frames) {
    if (size + f.byteLength > room && current.length > 0) {
      batches.push(current);
      current = [];
      size = 0;
    }
    current.push(f);
    size += f.byteLength;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

/** How many different datagram shapes {@link guessDatagram} makes. */
export const GUESS_KINDS = 5;

/**
 * A datagram carrying a guessed `token`: a reliable ordered, reliable unordered or unreliable message, a
 * disconnect, or a ping (`kind` modulo {@link GUESS_KINDS}), in the framing of `protocol`. Native: unsealed (a
 * guesser has no keys); a lucky token still fails the tag check.
 */
export function guessDatagram(protocol: KitProtocol, kind: number, token: bigint, seq: number): Uint8Array {
  const k = kind % GUESS_KINDS;
  if (protocol === 'v1') {
    const channel = [1, 2, 0, 0, 0][k]!;
    const type = [`o`, 'o', 'o', ReservedType.DISCONNECT, ReservedType.PING][k]!;
    return datagram({ channel, token, sequence: seq, ack: 0, ackBitfield: 0 }, type, { i: seq });
  }
  const frame =
    k < 3
      ? messageFrame([1, 2, 0][k]!, seq, 'o', { i: seq })
      : k === 3
        ? encodeDisconnectFrame('guessed')
        : encodeIdFrame(Frame.PING, seq);
  return nativeDatagram(token, [frame]);
}

/** 64 random bits that are not `avoid`. */
export function guessToken(random: () => number, avoid: bigint): bigint {
  for (;;) {
    const t = (BigInt(Math.floor(random() * 2 ** 32)) << 32n) | BigInt(Math.floor(random() * 2 ** 32));
    if (t !== avoid) return t;
  }
}
