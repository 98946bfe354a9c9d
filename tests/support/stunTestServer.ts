import { createSocket, type Socket } from 'node:dgram';

const COOKIE = 0x2112a442;

/** A Binding success response naming `address:port`, written independently of the code under test. */
export function stunSuccess(tx: Uint8Array, address: string, port: number, { xor = true } = {}): Uint8Array {
  const out = Buffer.alloc(32);
  out.writeUInt16BE(0x0101, 0);
  out.writeUInt16BE(12, 2);
  out.writeUInt32BE(COOKIE, 4);
  Buffer.from(tx).copy(out, 8);
  out.writeUInt16BE(xor ? 0x0020 : 0x0001, 20);
  out.writeUInt16BE(8, 22);
  out.writeUInt8(0, 24);
  out.writeUInt8(1, 25);
  const raw = address.split('.').reduce((acc, part) => acc * 256 + Number(part), 0);
  out.writeUInt16BE(xor ? port ^ (COOKIE >>> 16) : port, 26);
  out.writeUInt32BE(xor ? (raw ^ COOKIE) >>> 0 : raw, 28);
  return out;
}

/** What a fake STUN server answers a request from `from`: a mapped address, raw bytes, or nothing. */
export type StunAnswer = (from: { address: string; port: number }, tx: Uint8Array) => Uint8Array | null;

/** A STUN server on 127.0.0.1 answering Binding requests with `answer`; counts what it got. */
export async function startStunTestServer(
  answer: StunAnswer,
): Promise<{ port: number; requests: number; close(): Promise<void> }> {
  const socket: Socket = createSocket('udp4');
  const state = { port: 0, requests: 0, close: () => new Promise<void>((resolve) => socket.close(() => resolve())) };
  socket.on('message', (datagram, from) => {
    state.requests += 1;
    if (datagram.length < 20 || datagram.readUInt16BE(0) !== 0x0001) return;
    const reply = answer(from, datagram.subarray(8, 20));
    if (reply) socket.send(reply, from.port, from.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', () => resolve()));
  state.port = socket.address().port;
  return state;
}
