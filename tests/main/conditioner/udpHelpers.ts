import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';

/** A bound loopback socket that records what it receives. */
export interface Endpoint {
  socket: Socket;
  port: number;
  received: { data: Buffer; from: RemoteInfo; at: number }[];
  send(data: string | Buffer, port: number): void;
  close(): Promise<void>;
}

/** Binds a UDP socket on 127.0.0.1 (or ::1) with an ephemeral port. */
export async function endpoint(host: '127.0.0.1' | '::1' = '127.0.0.1'): Promise<Endpoint> {
  const socket = createSocket(host === '::1' ? 'udp6' : 'udp4');
  const received: Endpoint['received'] = [];
  socket.on('message', (data, from) => received.push({ data, from, at: performance.now() }));
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(0, host, () => {
      socket.off('error', reject);
      resolve();
    });
  });
  let closed = false;
  return {
    socket,
    port: socket.address().port,
    received,
    send: (data, port) => socket.send(data, port, host),
    close: () =>
      closed
        ? Promise.resolve()
        : new Promise((resolve) => {
            closed = true;
            socket.close(() => resolve());
          }),
  };
}

/** An endpoint that sends every datagram straight back to its source (the server behind the relay). */
export async function echoServer(host: '127.0.0.1' | '::1' = '127.0.0.1'): Promise<Endpoint> {
  const server = await endpoint(host);
  server.socket.on('message', (data, from) => server.socket.send(data, from.port, from.address));
  return server;
}

/** Polls until `check` holds; fails after `timeoutMs` with `what` in the message. */
export async function waitFor(check: () => boolean, what: string, timeoutMs = 3_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!check()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Waits a fixed time (for asserting that nothing arrives). */
export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether this machine has IPv6 loopback (some containers disable it). */
export async function hasIpv6Loopback(): Promise<boolean> {
  try {
    const probe = await endpoint('::1');
    await probe.close();
    return true;
  } catch {
    return false;
  }
}

/** Closers of what a test opened, run newest first by {@link closeTracked} (call it in afterEach). */
const tracked: (() => Promise<void>)[] = [];

/** Awaits `thing` and remembers to close it after the test. */
export async function track<T extends { close(): Promise<void> }>(thing: Promise<T>): Promise<T> {
  const value = await thing;
  tracked.push(() => value.close());
  return value;
}

/** Closes everything {@link track} was given, newest first. */
export async function closeTracked(): Promise<void> {
  for (const close of tracked.splice(0).reverse()) await close();
}

/** The datagrams an endpoint received, as text. */
export const texts = (e: Endpoint): string[] => e.received.map((r) => r.data.toString());

/**
 * An echo server, a relay in front of it made by `start` (either conditioner), and a client; all closed after
 * the test.
 */
export async function relayRig<
  O extends { target: { host: string; port: number } },
  R extends { close(): Promise<void> },
>(
  start: (options: O) => Promise<R>,
  options: Partial<O> = {},
): Promise<{ server: Endpoint; relay: R; client: Endpoint }> {
  const server = await track(echoServer());
  const relay = await track(start({ target: { host: '127.0.0.1', port: server.port }, ...options } as O));
  const client = await track(endpoint());
  return { server, relay, client };
}
