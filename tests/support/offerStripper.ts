import { createSocket, type RemoteInfo } from 'node:dgram';
import { ReservedType, Wire } from '../../main/net/v1/protocol';
import { jsonSerializer } from '../../main/net/v1/serialization';

/** Buffers for bursts, as the link conditioner's sockets have. */
const RELAY_SOCKET = { type: 'udp4', recvBufferSize: 1 << 20, sendBufferSize: 1 << 20 } as const;

/** A one-client relay on 127.0.0.1 that strips the native offer from connect requests, as a hostile middlebox would. */
export interface OfferStripper {
  /** Where the client should connect (127.0.0.1). */
  readonly port: number;
  /** Connect requests whose offer it removed. */
  readonly stripped: number;
  close(): Promise<void>;
}

/** The connect request without its offer (v1 framing, token 0), or undefined when `datagram` is not one that offers. */
function withoutOffer(datagram: Uint8Array): Uint8Array | undefined {
  const body = Buffer.from(datagram.subarray(Wire.HEADER_SIZE)).toString('utf8');
  if (!body.includes(ReservedType.CONNECT_REQUEST) || !body.includes('"native"')) return undefined;
  const plain = jsonSerializer.serialize(ReservedType.CONNECT_REQUEST, {});
  const out = new Uint8Array(Wire.HEADER_SIZE + plain.length);
  out.set(datagram.subarray(0, Wire.HEADER_SIZE));
  out.set(plain, Wire.HEADER_SIZE);
  return out;
}

/** Starts the relay in front of 127.0.0.1:`serverPort`; everything else passes through unchanged. */
export async function startOfferStripper(serverPort: number): Promise<OfferStripper> {
  const front = createSocket(RELAY_SOCKET);
  const back = createSocket(RELAY_SOCKET);
  let client: RemoteInfo | undefined;
  let stripped = 0;
  front.on('message', (data, from) => {
    client = from;
    const plain = withoutOffer(data);
    if (plain) stripped += 1;
    back.send(plain ?? data, serverPort, '127.0.0.1');
  });
  back.on('message', (data) => {
    if (client) front.send(data, client.port, client.address);
  });
  for (const s of [front, back]) s.on('error', () => undefined);
  const bind = (s: typeof front) =>
    new Promise<number>((resolve) => s.bind(0, '127.0.0.1', () => resolve(s.address().port)));
  const port = await bind(front);
  await bind(back);
  return {
    port,
    get stripped() {
      return stripped;
    },
    close: async () => {
      await Promise.all([front, back].map((s) => new Promise<void>((r) => s.close(() => r()))));
    },
  };
}
