import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';

/** Buffers for bursts, as the link conditioner's sockets have. */
const RELAY_SOCKET = { type: 'udp4', recvBufferSize: 1 << 20, sendBufferSize: 1 << 20 } as const;

/** A transparent one-client relay that records real traffic and can inject datagrams from trusted addresses. */
export interface TapRelay {
  /** Where the client should connect (127.0.0.1). */
  readonly port: number;
  /** Datagrams seen client → server and server → client while `capturing` (bounded by `maxCaptured`). */
  readonly captured: { upstream: Uint8Array[]; downstream: Uint8Array[] };
  capturing: boolean;
  /** Sends to the server from the address it knows as this client's. */
  injectToServer(datagram: Uint8Array): void;
  /** Sends to the client from the address it knows as the server's; false before the client has spoken. */
  injectToClient(datagram: Uint8Array): boolean;
  close(): Promise<void>;
}

function bind(socket: Socket): Promise<number> {
  return new Promise((resolve) => socket.bind(0, '127.0.0.1', () => resolve(socket.address().port)));
}

/**
 * Starts a relay on 127.0.0.1 in front of `serverPort`. Because the server sees the relay's back socket as the
 * client, and the client sees its front socket as the server, injected datagrams pass both endpoints' source
 * checks and reach the connection code itself, as a spoofer on the path would.
 */
export async function startTapRelay(serverPort: number, maxCaptured = 4000): Promise<TapRelay> {
  const front = createSocket(RELAY_SOCKET);
  const back = createSocket(RELAY_SOCKET);
  let client: RemoteInfo | undefined;
  const captured = { upstream: [] as Uint8Array[], downstream: [] as Uint8Array[] };
  const relay: TapRelay = {
    port: 0,
    captured,
    capturing: true,
    injectToServer: (d) => back.send(d, serverPort, '127.0.0.1'),
    injectToClient: (d) => {
      if (!client) return false;
      front.send(d, client.port, client.address);
      return true;
    },
    close: async () => {
      await Promise.all([front, back].map((s) => new Promise<void>((r) => s.close(() => r()))));
    },
  };
  const keep = (list: Uint8Array[], data: Buffer) => {
    if (relay.capturing && list.length < maxCaptured) list.push(new Uint8Array(data));
  };
  front.on('message', (data, from) => {
    client = from;
    keep(captured.upstream, data);
    back.send(data, serverPort, '127.0.0.1');
  });
  back.on('message', (data) => {
    keep(captured.downstream, data);
    if (client) front.send(data, client.port, client.address);
  });
  for (const s of [front, back]) s.on('error', () => undefined);
  const port = await bind(front);
  await bind(back);
  return Object.assign(relay, { port });
}
