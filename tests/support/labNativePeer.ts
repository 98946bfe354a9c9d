import { nativeDatagram as buildNativeDatagram, sealDatagram } from './nativeDatagram';
import { createSocket, type Socket } from 'node:dgram';
import { unpackHeader } from '../../main/net/v1/header';
import { ReservedType, Wire } from '../../main/net/v1/protocol';
import { compactJsonSerializer, jsonSerializer } from '../../main/net/v1/serialization';
import {
  encodeIdFrame,
  encodeMessageFrame,
  encodePathFrame,
  type NativeFrame,
} from '../../main/net/native/wire/nativeFrames';
import { NativeParseError, parseNativePacket } from '../../main/net/native/wire/nativePacket';
import { Frame, Native } from '../../main/net/native/wire/nativeWire';
import { recvWindowFor } from '../../main/net/native/handshake/negotiation';
import {
  decodePublicKey,
  deriveNativeKeys,
  encodePublicKey,
  generateNativeKeyPair,
} from '../../main/net/native/protection/nativeKeys';
import {
  Opened,
  PacketOpener,
  PacketSealer,
  type DirectionKeys,
} from '../../main/net/native/protection/packetProtection';
import { DEFAULT_RECV_BUFFER, raiseRecvBuffer } from '../../main/net/endpoint/udpSocket';
import { connectRequest, type RawReceived } from './labRawPeer';

/** The native parameters a raw peer offers (spec defaults), and the cookie it echoes once challenged. */
export interface OfferFields {
  version?: number;
  mtu?: number;
  codec?: string;
  /** Largest reliable message this side sends, bytes (the smaller offer wins). */
  maxMessage?: number;
  /** Reliable bytes the server may have in flight towards this peer (absent: the protocol's minimum). */
  recvWindow?: number;
  /** The offerer's X25519 public key, base64url (default: a fresh one nobody holds the private half of). */
  key?: string;
  cookie?: string;
}

/** What a raw peer offers unless told otherwise: the defaults of our own Client (a key is added per offer). */
export const DEFAULT_OFFER = {
  version: Native.VERSION,
  mtu: Native.DEFAULT_MTU,
  codec: 'json',
  maxMessage: 4 * 1024 * 1024,
};

/**
 * A connect-request payload carrying a native offer, padded with a `pad` string so the whole v1 datagram
 * (header + the reference's JSON) is exactly `size` bytes when `size` is larger than the bare offer; size 0: unpadded.
 */
export function offerPayload(fields: OfferFields = {}, size: number = Native.MIN_OFFER_DATAGRAM): object {
  const key = fields.key ?? encodePublicKey(generateNativeKeyPair().publicKey);
  const native: Record<string, unknown> = { ...DEFAULT_OFFER, ...fields, key };
  // Size 0: no pad field at all, the shortest request this offer makes (a v2 key leaves little room under the minimum).
  if (size === 0) return { native };
  const bare = requestSize({ native, pad: '' });
  return { native, pad: '.'.repeat(Math.max(0, size - bare)) };
}

/** Bytes of the v1 connect request carrying `payload`. */
export function requestSize(payload: object): number {
  return Wire.HEADER_SIZE + jsonSerializer.serialize(ReservedType.CONNECT_REQUEST, payload).byteLength;
}

/**
 * One native datagram: magic ‖ token (big-endian) ‖ packet number ‖ frames, in order ‖ tag; numbered and tagged by
 * `sealer` when given, else packet number 0 and an all-zero tag (a forgery: the receiver drops it as `bad-tag`).
 */
export function nativeDatagram(token: bigint, frames: readonly Uint8Array[], sealer?: PacketSealer): Buffer {
  const datagram = buildNativeDatagram(token, ...frames);
  if (sealer) sealDatagram(datagram, sealer);
  return Buffer.from(datagram.buffer, datagram.byteOffset, datagram.byteLength);
}

/** A MESSAGE frame carrying `{type, payload}` in compact JSON (the codec a raw peer negotiates). */
export function messageFrame(channel: number, seq: number, type: string, payload: object = {}): Uint8Array {
  return encodeMessageFrame(channel, seq, compactJsonSerializer.serialize(type, payload));
}

/** One native datagram a raw native peer received, with its frames when it was authentic and parsed. */
export interface NativeReceived {
  token: bigint | undefined;
  /** What the peer's PacketOpener said of it (undefined before the keys were agreed). */
  opened: Opened | undefined;
  frames: NativeFrame[] | undefined;
  size: number;
}

/**
 * A hand-driven native endpoint on 127.0.0.x: it performs the cookie handshake in v1 framing (offering its own
 * X25519 key and deriving the packet keys from the accept's), then says (and acknowledges) only what the test
 * tells it to, every datagram numbered and tagged like a real peer's; what it receives is authenticated first.
 */
export interface NativePeer {
  readonly socket: Socket;
  /** Token from the server's accept (0n until accepted). */
  token: bigint;
  peerId: number | undefined;
  /** Parameters the server accepted. */
  accepted: { version: number; mtu: number; codec: string; maxMessage: number; key: string } | undefined;
  /** The packet keys derived from the accept (undefined before it). */
  keys: DirectionKeys | undefined;
  /** Numbers and tags what this peer sends (after the accept). */
  sealer: PacketSealer | undefined;
  /** v1 datagrams received (challenges, accepts). */
  readonly handshakeReplies: RawReceived[];
  /** Native datagrams received. */
  readonly received: NativeReceived[];
  /** Answer PING frames with PONG frames (keeps the peer from timing out without acknowledging anything). */
  answerPings: boolean;
  /** Sends one native datagram holding `frames`, sealed with the peer's keys; `token` defaults to the peer's. */
  sendFrames(frames: readonly Uint8Array[], token?: bigint): void;
  /** The datagram {@link sendFrames} would send (it takes the next packet number), for a test to send or keep. */
  seal(frames: readonly Uint8Array[], token?: bigint): Buffer;
  /** Sends bytes as they are. */
  sendRaw(data: Uint8Array): void;
  /** Every frame of `kind` received so far. */
  framesOf<K extends NativeFrame['kind']>(kind: K): Extract<NativeFrame, { kind: K }>[];
  /** Offers, echoes the challenge's cookie, resolves on the native accept (rejects after `timeoutMs`). */
  handshake(timeoutMs?: number): Promise<void>;
  close(): void;
}

/** Opens a raw native peer's socket (bound to `host`, in 127.0.0.0/8) aimed at `serverPort` on 127.0.0.1. */
export async function nativePeer(
  serverPort: number,
  host = '127.0.0.1',
  options: { keep?: number; offer?: OfferFields } = {},
): Promise<NativePeer> {
  const keep = options.keep ?? 20_000;
  const socket = createSocket('udp4');
  socket.on('error', () => undefined);
  await new Promise<void>((r) => socket.bind(0, host, r));
  await new Promise<void>((r) => socket.connect(serverPort, '127.0.0.1', r));
  // Like our Client: a raised receive buffer, a quarter of it advertised (so the send window, not the
  // byte budget, is what a test of the window meets).
  const recvWindow = recvWindowFor(raiseRecvBuffer(socket, DEFAULT_RECV_BUFFER));
  let cookie: string | undefined;
  // One key pair per connect attempt, as our Client has: the cookie binds the offer, key included.
  const pair = generateNativeKeyPair();
  const key = encodePublicKey(pair.publicKey);
  const offer = () =>
    socket.send(connectRequest(offerPayload({ recvWindow, key, ...options.offer, ...(cookie ? { cookie } : {}) })));
  const peer: NativePeer = {
    socket,
    token: 0n,
    peerId: undefined,
    accepted: undefined,
    keys: undefined,
    sealer: undefined,
    handshakeReplies: [],
    received: [],
    answerPings: true,
    seal: (frames, token = peer.token) => nativeDatagram(token, frames, peer.sealer),
    sendFrames: (frames, token) => socket.send(peer.seal(frames, token)),
    sendRaw: (data) => socket.send(data),
    framesOf: <K extends NativeFrame['kind']>(kind: K) =>
      peer.received.flatMap((r) =>
        (r.frames ?? []).filter((f): f is Extract<NativeFrame, { kind: K }> => f.kind === kind),
      ),
    handshake(timeoutMs = 2000) {
      return new Promise((resolve, reject) => {
        const started = Date.now();
        const retry = setInterval(() => {
          if (peer.token !== 0n) {
            clearInterval(retry);
            resolve();
          } else if (Date.now() - started > timeoutMs) {
            clearInterval(retry);
            reject(new Error('no native accept'));
          } else offer();
        }, 20);
        offer();
      });
    },
    close: () => socket.close(),
  };
  let opener: PacketOpener | undefined;
  socket.on('message', (data) => {
    if (data[0] === Native.MAGIC) return onNative(peer, opener, data, keep);
    const header = unpackHeader(data);
    if (!header) return;
    let message;
    try {
      message = jsonSerializer.deserialize(data.subarray(Wire.HEADER_SIZE));
    } catch {
      message = undefined;
    }
    if (peer.handshakeReplies.length < keep) peer.handshakeReplies.push({ header, message, size: data.byteLength });
    if (message?.type === ReservedType.NATIVE_CHALLENGE && typeof message.payload.cookie === 'string' && !cookie) {
      cookie = message.payload.cookie;
      offer();
    }
    if (message?.type === ReservedType.CONNECT_ACCEPTED && peer.token === 0n && header.token !== 0n) {
      const native = message.payload.native as NativePeer['accepted'];
      if (!native) return; // a v1 accept: not what this peer asked for
      const theirs = decodePublicKey(native.key);
      const keys = theirs && deriveNativeKeys(pair, theirs, 'client');
      if (!keys) return; // no usable key: our Client fails such a connect
      peer.keys = keys;
      peer.sealer = new PacketSealer(keys.send);
      opener = new PacketOpener(keys.receive);
      peer.token = header.token;
      peer.peerId = typeof message.payload.peer_id === 'number' ? message.payload.peer_id : undefined;
      peer.accepted = native;
    }
  });
  return peer;
}

function onNative(peer: NativePeer, opener: PacketOpener | undefined, data: Buffer, keep: number): void {
  let frames: NativeFrame[] | undefined;
  let token: bigint | undefined;
  // As the transport does: the tag and the packet number first, the frames only of an authentic datagram.
  const opened = opener?.open(data);
  const authentic = opened === Opened.NEWEST || opened === Opened.LATE;
  try {
    const packet = parseNativePacket(data);
    token = packet.token;
    if (authentic) frames = packet.frames;
  } catch (error) {
    if (!(error instanceof NativeParseError)) throw error;
  }
  // Frames are views into the datagram: copy the bodies so later datagrams cannot change them.
  frames = frames?.map((f) => ('body' in f ? { ...f, body: new Uint8Array(f.body) } : f));
  if (peer.received.length < keep) peer.received.push({ token, opened, frames, size: data.byteLength });
  if (!authentic || token !== peer.token) return;
  // A path challenge is answered like our Client does (a raw peer never moves, but it must not look dead).
  const replies = (frames ?? []).flatMap((f) =>
    f.kind === Frame.PING && peer.answerPings
      ? [encodeIdFrame(Frame.PONG, f.id)]
      : f.kind === Frame.PATH_CHALLENGE
        ? [encodePathFrame(Frame.PATH_RESPONSE, f.data)]
        : [],
  );
  if (replies.length > 0) peer.sendFrames(replies);
}
