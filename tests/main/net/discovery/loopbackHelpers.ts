import {
  DiscoveryPortRegistry,
  startLanDiscovery,
  type LanDiscoveryHandle,
  type LanDiscoveryOptions,
} from '../../../../main/net/discovery';
import dgram, { type RemoteInfo, type Socket } from 'node:dgram';
import { openUdpDatagramSocket, type OpenDatagramSocket } from '../../../../main/net/index';
import type { Logger } from '../../../../main/base/logger';

/** Opens UDP sockets whose sends to `target` fail with `code` (as EACCES/ENETUNREACH/EHOSTUNREACH would) without sending. */
export function failingSocket(target: string, code: string): OpenDatagramSocket {
  return async (options) => {
    const socket = await openUdpDatagramSocket(options);
    const realSend = socket.send.bind(socket);
    socket.send = (datagram, port, address, done) => {
      if (address !== target) return realSend(datagram, port, address, done);
      queueMicrotask(() => done?.(Object.assign(new Error(`send ${code} ${target}`), { code })));
      return true;
    };
    return socket;
  };
}

/** Loopback-only broadcast address: the only broadcast these tests ever send to. */
export const LOOPBACK_BROADCAST = '127.255.255.255';

export { freeUdpPort } from '../../../support/freeUdpPort';

/** A datagram a {@link RawPeer} received. */
export interface Received {
  readonly text: string;
  readonly bytes: Buffer;
  readonly from: RemoteInfo;
}

/** A plain UDP socket for poking the code under test from outside. */
export interface RawPeer {
  readonly socket: Socket;
  readonly port: number;
  readonly received: Received[];
  send(data: string | Uint8Array, port: number, host?: string): Promise<void>;
  close(): Promise<void>;
}

/** Binds a raw udp4 socket (optionally sharing `port` with reuseAddr) that records everything it receives. */
export async function openRawPeer(
  options: { port?: number; address?: string; reuseAddr?: boolean } = {},
): Promise<RawPeer> {
  const socket = dgram.createSocket({ type: 'udp4', reuseAddr: options.reuseAddr ?? false });
  const received: Received[] = [];
  socket.on('message', (bytes, from) => received.push({ text: bytes.toString('utf8'), bytes, from }));
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject); // a taken port fails the test at once instead of leaving it to time out
    socket.bind(options.port ?? 0, options.address ?? '0.0.0.0', () => resolve());
  });
  socket.setBroadcast(true);
  return {
    socket,
    port: socket.address().port,
    received,
    send: (data, port, host = '127.0.0.1') =>
      new Promise<void>((resolve, reject) =>
        socket.send(data, port, host, (error) => (error ? reject(error) : resolve())),
      ),
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}

/** Polls until `condition` holds (bounded: throws after `timeoutMs`). */
export async function waitFor(condition: () => boolean, timeoutMs = 2000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Lets in-flight loopback datagrams arrive, to assert that something did NOT happen. */
export function settle(ms = 150): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A logger that keeps warnings and errors for assertions instead of printing them. */
export function createRecordingLogger(): Logger & { readonly warnings: string[]; readonly errors: string[] } {
  const warnings: string[] = [];
  const errors: string[] = [];
  return {
    info() {},
    warn: (message) => void warnings.push(message),
    error: (message) => void errors.push(message),
    warnings,
    errors,
  };
}

/** A LAN Party responder with its own port registry, standing in for a separate process sharing the port; closed by `cleanups`. */
export async function startTestResponder(
  port: number,
  cleanups: Array<() => Promise<void>>,
  overrides: Partial<LanDiscoveryOptions> = {},
): Promise<LanDiscoveryHandle> {
  const logger = createRecordingLogger();
  const handle = await startLanDiscovery({
    name: 'Server',
    gamePort: 7000,
    getPlayerCount: () => 0,
    port,
    registry: new DiscoveryPortRegistry(undefined, logger),
    logger,
    ...overrides,
  });
  cleanups.push(() => handle.close());
  return handle;
}
