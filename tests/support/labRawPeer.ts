import { createSocket, type Socket } from 'node:dgram';
import { packHeader, unpackHeader, type PacketHeader } from '../../main/net/v1/header';
import { ReservedType, Wire } from '../../main/net/v1/protocol';
import { jsonSerializer, type DecodedMessage } from '../../main/net/v1/serialization';

/** One datagram a raw peer received, decoded when possible. */
export interface RawReceived {
  header: PacketHeader;
  message: DecodedMessage | undefined;
  size: number;
}

/** A hand-driven v1 endpoint on 127.0.0.x: it says and acknowledges only what the test tells it to. */
export interface RawPeer {
  readonly socket: Socket;
  /** Token from the server's accept (0n until accepted). */
  token: bigint;
  peerId: number | undefined;
  readonly received: RawReceived[];
  /** Answer `__ping__` with `__pong__` (keeps the peer from timing out without acking anything else). */
  answerPings: boolean;
  /** Sends one datagram to the server; `token` defaults to the peer's. */
  send(fields: Partial<PacketHeader> & { type: string; payload?: object }): void;
  /**
   * Sends `__connect_request__` and resolves on the accept (rejects after `timeoutMs`). With `confirm` (default)
   * it then pings with its token, as a real client does, and resolves once the pong is back: a v1 server keeps
   * a peer only from that echo of its accept on (the request alone may be spoofed).
   */
  handshake(timeoutMs?: number, confirm?: boolean): Promise<void>;
  close(): void;
}

/** Builds one v1 datagram with the reference's JSON body. */
export function datagram(header: PacketHeader, type: string, payload: object = {}): Buffer {
  return Buffer.concat([packHeader(header), jsonSerializer.serialize(type, payload)]);
}

/** A v1 connect request (control channel, token 0) carrying `payload`, as a client's first datagram. */
export function connectRequest(payload: object = {}): Buffer {
  return datagram(
    { channel: 0, token: 0n, sequence: 0, ack: 0, ackBitfield: 0 },
    ReservedType.CONNECT_REQUEST,
    payload,
  );
}

/** Opens a raw peer's socket (bound to `host`, an address in 127.0.0.0/8) aimed at `serverPort` on 127.0.0.1. */
export async function rawPeer(serverPort: number, host = '127.0.0.1', keep = 10_000): Promise<RawPeer> {
  const socket = createSocket('udp4');
  socket.on('error', () => undefined);
  await new Promise<void>((r) => socket.bind(0, host, r));
  await new Promise<void>((r) => socket.connect(serverPort, '127.0.0.1', r));
  const peer: RawPeer = {
    socket,
    token: 0n,
    peerId: undefined,
    received: [],
    answerPings: true,
    send({ type, payload = {}, ...fields }) {
      const header = { channel: 0, token: peer.token, sequence: 0, ack: 0, ackBitfield: 0, ...fields };
      socket.send(datagram(header, type, payload));
    },
    handshake(timeoutMs = 2000, confirm = true) {
      return new Promise((resolve, reject) => {
        const started = Date.now();
        const ponged = () => peer.received.some((r) => r.message?.type === ReservedType.PONG);
        const retry = setInterval(() => {
          if (peer.token !== 0n && (!confirm || ponged())) {
            clearInterval(retry);
            resolve();
          } else if (Date.now() - started > timeoutMs) {
            clearInterval(retry);
            reject(new Error(peer.token === 0n ? 'no accept' : 'no pong to the confirming ping'));
          } else if (peer.token === 0n) peer.send({ type: ReservedType.CONNECT_REQUEST, token: 0n });
          else peer.send({ type: ReservedType.PING, payload: { id: 0 } });
        }, 20);
        peer.send({ type: ReservedType.CONNECT_REQUEST, token: 0n });
      });
    },
    close: () => socket.close(),
  };
  socket.on('message', (data) => {
    const header = unpackHeader(data);
    if (!header) return;
    let message: DecodedMessage | undefined;
    try {
      message = jsonSerializer.deserialize(data.subarray(Wire.HEADER_SIZE));
    } catch {
      message = undefined;
    }
    if (peer.received.length < keep) peer.received.push({ header, message, size: data.byteLength });
    if (message?.type === ReservedType.CONNECT_ACCEPTED && peer.token === 0n) {
      peer.token = header.token;
      peer.peerId = typeof message.payload.peer_id === 'number' ? message.payload.peer_id : undefined;
    }
    if (message?.type === ReservedType.PING && peer.answerPings && peer.token !== 0n) {
      peer.send({ type: ReservedType.PONG, payload: message.payload });
    }
  });
  return peer;
}
