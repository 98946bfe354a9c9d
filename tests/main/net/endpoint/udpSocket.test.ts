import { createSocket, type Socket } from 'node:dgram';
import { afterEach, describe, expect, it } from 'vitest';
import type { DatagramHandlers } from '../../../../main/net/endpoint/datagramSocket';
import {
  literalFirstLookup,
  openUdpDatagramSocket,
  openUdpSocket,
  UdpDatagramSocket,
} from '../../../../main/net/endpoint/udpSocket';

const opened: Socket[] = [];
afterEach(() => {
  for (const s of opened.splice(0)) s.close(() => undefined);
});

async function sink(): Promise<{ port: number; received: Buffer[] }> {
  const socket = createSocket('udp4');
  opened.push(socket);
  const received: Buffer[] = [];
  socket.on('message', (data) => received.push(data));
  await new Promise<void>((r) => socket.bind(0, '127.0.0.1', r));
  return { port: socket.address().port, received };
}

/** Wraps a bound socket, counting failed sends through the seam's handlers. */
function listening(socket: Socket, onSendError: () => void): UdpDatagramSocket {
  const wrapped = new UdpDatagramSocket(socket, 0);
  const handlers: DatagramHandlers = { message: () => undefined, sendError: onSendError, error: () => undefined };
  wrapped.listen(handlers);
  return wrapped;
}

const until = async (done: () => boolean) => {
  for (let i = 0; i < 200 && !done(); i++) await new Promise((r) => setTimeout(r, 5));
};

describe('literalFirstLookup', () => {
  it('answers an IPv4 literal before returning', () => {
    const answers: unknown[][] = [];
    literalFirstLookup('127.0.0.1', { family: 4 }, (...args) => answers.push(args));
    expect(answers).toEqual([[null, '127.0.0.1', 4]]);
  });

  it('answers literals seen before, and thousands of distinct ones, at once and right; a name still goes to DNS', async () => {
    const answers: unknown[][] = [];
    // Past the set of remembered literals (4096): it starts over rather than growing or answering wrongly.
    for (let i = 0; i < 5000; i++) {
      const address = `10.${(i >> 8) & 255}.${i & 255}.${i % 7}`;
      literalFirstLookup(address, { family: 4 }, (...args) => answers.push(args));
      literalFirstLookup(address, { family: 4 }, (...args) => answers.push(args));
    }
    expect(answers.length).toBe(10_000);
    expect(answers[9_999]).toEqual([null, '10.19.135.1', 4]);
    expect(answers.every(([err, , family]) => err === null && family === 4)).toBe(true);
    const late: unknown[][] = [];
    literalFirstLookup('localhost', { family: 4 }, (...args) => late.push(args));
    expect(late).toEqual([]); // deferred to dns.lookup, not taken for a literal
    await until(() => late.length === 1);
    expect(late).toEqual([[null, '127.0.0.1', 4]]);
  });

  it('hands a name to dns.lookup (localhost: from the hosts file, no query leaves the machine)', async () => {
    const answer = new Promise<unknown[]>((r) => literalFirstLookup('localhost', { family: 4 }, (...args) => r(args)));
    expect(await answer).toEqual([null, '127.0.0.1', 4]);
  });
});

describe('UdpDatagramSocket', () => {
  it('sends to an address and to the connected peer, counting sends until they complete', async () => {
    const far = await sink();
    const { socket } = await openUdpSocket({ host: '127.0.0.1' });
    const errors: number[] = [];
    const sender = listening(socket, () => errors.push(1));
    sender.send(Buffer.from('to-address'), far.port, '127.0.0.1');
    expect(sender.inFlight).toBe(1);
    await until(() => far.received.length === 1);
    expect(await sender.connect(far.port, '127.0.0.1')).toMatchObject({ address: '127.0.0.1', port: far.port });
    sender.send(Buffer.from('to-peer'));
    await until(() => far.received.length === 2);
    expect(far.received.map(String)).toEqual(['to-address', 'to-peer']);
    expect(sender.inFlight).toBe(0);
    expect(errors).toEqual([]);
    await sender.close();
  });

  it('reports a failed send (which Node drops without a callback) and keeps sending after it', async () => {
    const far = await sink();
    const { socket } = await openUdpSocket({ host: '127.0.0.1' });
    let errors = 0;
    const sender = listening(socket, () => (errors += 1));
    sender.send(Buffer.alloc(70_000), far.port, '127.0.0.1'); // over UDP's 65,507-byte limit: EMSGSIZE
    sender.send(Buffer.from('after'), far.port, '127.0.0.1');
    await until(() => errors === 1 && far.received.length === 1);
    expect(errors).toBe(1);
    expect(far.received.map(String)).toEqual(['after']);
    expect(sender.inFlight).toBe(0);
    await sender.close();
  });

  it('without reportSendErrors, watches no send (no callback, nothing in flight) but one that asks for its verdict', async () => {
    const far = await sink();
    const sender = await openUdpDatagramSocket({
      port: 0,
      host: '127.0.0.1',
      recvBufferSize: 0,
      reportSendErrors: false,
    });
    let errors = 0;
    sender.listen({ message: () => undefined, sendError: () => (errors += 1), error: () => undefined });
    sender.send(Buffer.alloc(70_000), far.port, '127.0.0.1'); // EMSGSIZE, unheard
    expect((sender as UdpDatagramSocket).inFlight).toBe(0);
    const verdicts: Array<string | undefined> = [];
    sender.send(Buffer.alloc(70_000), far.port, '127.0.0.1', (e) => verdicts.push((e as NodeJS.ErrnoException)?.code));
    sender.send(Buffer.from('after'), far.port, '127.0.0.1');
    await until(() => verdicts.length === 1 && far.received.length === 1);
    expect(verdicts).toEqual(['EMSGSIZE']);
    expect(errors).toBe(1); // the watched send's only
    expect(far.received.map(String)).toEqual(['after']);
    await sender.close();
  });

  it('says whether the OS took the bytes at once, so the caller may reuse them', async () => {
    const far = await sink();
    const { socket } = await openUdpSocket({ host: '127.0.0.1' });
    const sender = new UdpDatagramSocket(socket, 0);
    const bytes = Uint8Array.from(Buffer.from('first'));
    expect(sender.send(bytes, far.port, '127.0.0.1')).toBe(true);
    bytes.set(Buffer.from('again')); // reused at once: what left must still read 'first'
    expect(sender.send(bytes, far.port, '127.0.0.1')).toBe(true);
    await until(() => far.received.length === 2);
    expect(far.received.map(String)).toEqual(['first', 'again']);
    // With libuv's queue holding a send (as when the socket buffer is full), the bytes are not free.
    await sender.connect(far.port, '127.0.0.1');
    expect(sender.send(Buffer.from('connected'))).toBe(true);
    const queued = Object.assign(Object.create(socket) as typeof socket, { getSendQueueCount: () => 1 });
    expect(new UdpDatagramSocket(queued, 0).send(Buffer.from('x'))).toBe(false);
    await until(() => far.received.length === 4);
    await sender.close();
  });

  it('does not call bytes free when the address lookup deferred the send', async () => {
    const far = await sink();
    const { socket } = await openUdpSocket({ host: '127.0.0.1' });
    const sender = new UdpDatagramSocket(socket, 0);
    expect(sender.send(Buffer.from('by name'), far.port, 'localhost')).toBe(false); // dns.lookup answers later
    expect(sender.send(Buffer.from('by literal'), far.port, '127.0.0.1')).toBe(true);
    // A socket not made by openUdpSocket looks up even literals later (dns.lookup's next tick).
    const plain = createSocket('udp4');
    await new Promise<void>((r) => plain.bind(0, '127.0.0.1', r));
    const plainSender = new UdpDatagramSocket(plain, 0);
    expect(plainSender.send(Buffer.from('plain'), far.port, '127.0.0.1')).toBe(false);
    await until(() => far.received.length === 3);
    expect(far.received.map(String).sort()).toEqual(['by literal', 'by name', 'plain']);
    await sender.close();
    await plainSender.close();
  });

  it('closes the socket, and a second close does not throw', async () => {
    const { socket } = await openUdpSocket({ host: '127.0.0.1' });
    const sender = new UdpDatagramSocket(socket, 0);
    await sender.close();
    expect(() => socket.address()).toThrow();
    await expect(sender.close()).resolves.toBeUndefined();
  });

  it('opens a real bound socket that hands datagrams and their source to the handler', async () => {
    const socket = await openUdpDatagramSocket({ port: 0, host: '127.0.0.1', recvBufferSize: 256 * 1024 });
    expect(socket.address).toBe('127.0.0.1');
    expect(socket.port).toBeGreaterThan(0);
    expect(socket.recvBufferSize).toBeGreaterThan(0);
    expect(socket.sendBufferSize).toBeGreaterThan(0);
    const got: Array<[string, string, number]> = [];
    socket.listen({
      message: (data, from) => got.push([Buffer.from(data).toString(), from.address, from.port]),
      sendError: () => undefined,
      error: () => undefined,
    });
    const far = createSocket('udp4');
    opened.push(far);
    await new Promise<void>((r) => far.bind(0, '127.0.0.1', r));
    far.send('hello', socket.port, '127.0.0.1');
    await until(() => got.length === 1);
    expect(got).toEqual([['hello', '127.0.0.1', far.address().port]]);
    await socket.close();
  });

  it('opens an IPv6 socket when asked, with the send buffer asked for', async (context) => {
    const plain = await openUdpDatagramSocket({ port: 0, host: '127.0.0.1', recvBufferSize: 0 });
    await plain.close();
    const socket = await openUdpDatagramSocket({
      port: 0,
      host: '::1',
      family: 6,
      recvBufferSize: 0,
      sendBufferSize: 1 << 20,
    }).catch((error: NodeJS.ErrnoException) => (error.code === 'EADDRNOTAVAIL' ? undefined : Promise.reject(error)));
    if (socket === undefined) return context.skip(); // no IPv6 loopback in this container
    expect(socket.address).toBe('::1');
    // The OS may cap it, never below what it grants unasked.
    expect(socket.sendBufferSize).toBeGreaterThanOrEqual(plain.sendBufferSize);
    const got: string[] = [];
    socket.listen({
      message: (data) => got.push(Buffer.from(data).toString()),
      sendError: () => undefined,
      error: () => undefined,
    });
    const far = createSocket('udp6');
    opened.push(far);
    await new Promise<void>((r) => far.bind(0, '::1', r));
    far.send('six', socket.port, '::1');
    await until(() => got.length === 1);
    expect(got).toEqual(['six']);
    await socket.close();
  });

  it('rejects a busy port with a BindError, and a second listen()', async () => {
    const socket = await openUdpDatagramSocket({ port: 0, host: '127.0.0.1', recvBufferSize: 0 });
    await expect(openUdpDatagramSocket({ port: socket.port, host: '127.0.0.1', recvBufferSize: 0 })).rejects.toThrow(
      /already in use/,
    );
    const handlers = { message: () => undefined, sendError: () => undefined, error: () => undefined };
    socket.listen(handlers);
    expect(() => socket.listen(handlers)).toThrow(/already called/);
    await socket.close();
  });

  it('survives a socket error before listen() and reports later ones to the error handler', async () => {
    const { socket } = await openUdpSocket({ host: '127.0.0.1' });
    const wrapped = new UdpDatagramSocket(socket, 0);
    const refused = Object.assign(new Error('refused'), { code: 'ECONNREFUSED' });
    socket.emit('error', refused); // no listener of ours yet: must not throw
    const errors: unknown[] = [];
    wrapped.listen({ message: () => undefined, sendError: () => undefined, error: (e) => errors.push(e) });
    socket.emit('error', refused);
    expect(errors).toEqual([refused]);
    await wrapped.close();
  });
});
