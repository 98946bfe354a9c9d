import { randomBytes } from 'node:crypto';
import { openUdpDatagramSocket, type DatagramSocket } from '../net/index';
import { systemScheduler, type Scheduler } from '../base/scheduler';
import type { NatReport } from '../../shared/netcheck/report';
import {
  encodeBindingRequest,
  parseBindingResponse,
  Stun,
  type MappedAddress,
} from '../../shared/netcheck/stunBinding';
import type { OpenUdp } from './portCheck';

/** A STUN server to ask, as host (an IPv4 literal or a name) and port. */
export interface StunEndpoint {
  readonly host: string;
  readonly port: number;
}

/** Options of {@link checkNat}; everything injectable so tests are exact. */
export interface NatCheckOptions {
  /**
   * Where to ask. Two endpoints (two servers, or one coturn's listening and alternate port) tell
   * endpoint-independent mapping from symmetric; with one, the check can only say open, mapped or blocked.
   */
  readonly servers: readonly StunEndpoint[];
  /** This machine's own IPv4 addresses: a mapping onto one of them means no NAT at all. */
  readonly localAddresses: readonly string[];
  /** The local address the probe socket binds; default 0.0.0.0, as the app binds its game port. */
  readonly bindAddress?: string;
  /** Per server, how long to wait for an answer in all; default 1500 ms. */
  readonly timeoutMs?: number;
  /** Requests per server, spread over the timeout (STUN over UDP retransmits; a lost one is not "blocked"). */
  readonly attempts?: number;
  readonly openUdp?: OpenUdp;
  readonly scheduler?: Scheduler;
  readonly randomBytes?: (size: number) => Uint8Array;
}

const SKIPPED: NatReport = {
  status: 'skipped',
  mappings: [],
  title: 'NAT type not checked',
  message: 'No STUN or TURN server is configured (Settings → Internet rooms), so the check did not ask one.',
};

/**
 * Asks STUN servers from one UDP socket what address they see, and classifies the path to the internet: open (no
 * NAT), endpoint-independent mapping (the router keeps one public port for every destination: friends usually
 * connect directly), symmetric (a new public port per destination: internet rooms go through the relay) or UDP
 * blocked. Sends only to the given servers. Never rejects: a failure is a report.
 */
export async function checkNat(options: NatCheckOptions): Promise<NatReport> {
  if (options.servers.length === 0) return SKIPPED;
  const open = options.openUdp ?? openUdpDatagramSocket;
  let socket: DatagramSocket;
  try {
    socket = await open({ port: 0, host: options.bindAddress ?? '0.0.0.0', recvBufferSize: 0 });
  } catch (error) {
    return failed(`Could not open a UDP socket for the check (${(error as NodeJS.ErrnoException).code ?? 'error'}).`);
  }
  // The servers are asked one at a time: each answer goes to the question being asked now.
  const asking: { heard?: (datagram: Uint8Array) => void } = {};
  socket.listen({
    message: (datagram) => asking.heard?.(datagram),
    sendError: () => undefined,
    error: () => undefined,
  });
  try {
    const mappings: NatReport['mappings'] = [];
    for (const server of options.servers.slice(0, 4)) {
      const mapped = await askServer(socket, asking, server, options);
      mappings.push({
        server: `${server.host}:${server.port}`,
        mapped: mapped ? `${mapped.address}:${mapped.port}` : null,
      });
    }
    return classify(mappings, options.localAddresses, socket.port);
  } finally {
    await socket.close();
  }
}

/** The classification of a set of answers. Pure. */
export function classify(
  mappings: NatReport['mappings'],
  localAddresses: readonly string[],
  localPort: number,
): NatReport {
  const answered = mappings.filter((row) => row.mapped !== null);
  if (answered.length === 0) {
    return {
      status: 'blocked',
      mappings,
      title: 'UDP to the internet looks blocked',
      message:
        'No STUN server answered. Internet rooms will need the relay over TCP, or another network; LAN rooms are not affected.',
    };
  }
  const distinct = new Set(answered.map((row) => row.mapped));
  if (distinct.size > 1) {
    return {
      status: 'symmetric',
      mappings,
      title: 'Symmetric NAT: a relay will be used',
      message:
        'Your router gives each destination a different public port, so friends cannot reach you directly; internet rooms go through the relay (TURN).',
    };
  }
  const [mapped] = distinct as Set<string>;
  const [address, port] = splitMapped(mapped!);
  if (localAddresses.includes(address) && port === localPort) {
    return {
      status: 'open',
      mappings,
      title: 'No NAT: friends can connect directly',
      message: 'STUN servers see this machine’s own address, so friends over the internet can connect directly.',
    };
  }
  if (answered.length < 2) {
    return {
      status: 'mapped',
      mappings,
      title: 'Behind a NAT (type not known)',
      message:
        'One STUN server answered, so the check cannot tell whether your router keeps your port. Internet rooms try a direct path first and fall back to the relay.',
    };
  }
  return {
    status: 'endpoint-independent',
    mappings,
    title: 'Friendly NAT: friends can usually connect directly',
    message:
      'Your router keeps the same public port for every destination, so a direct path usually works; the relay is the fallback.',
  };
}

function failed(message: string): NatReport {
  return { status: 'failed', mappings: [], title: 'NAT check failed', message };
}

function splitMapped(mapped: string): [string, number] {
  const at = mapped.lastIndexOf(':');
  return [mapped.slice(0, at), Number(mapped.slice(at + 1))];
}

function askServer(
  socket: DatagramSocket,
  asking: { heard?: (datagram: Uint8Array) => void },
  server: StunEndpoint,
  options: NatCheckOptions,
): Promise<MappedAddress | null> {
  const scheduler = options.scheduler ?? systemScheduler;
  const timeoutMs = options.timeoutMs ?? 1500;
  const attempts = Math.max(1, Math.min(options.attempts ?? 3, 5));
  const transactionId = (options.randomBytes ?? randomBytes)(Stun.TRANSACTION_ID_BYTES);
  const request = encodeBindingRequest(transactionId);
  return new Promise((resolve) => {
    const timers: unknown[] = [];
    const finish = (result: MappedAddress | null): void => {
      delete asking.heard;
      for (const timer of timers) scheduler.clearTimer(timer);
      resolve(result);
    };
    asking.heard = (datagram) => {
      const mapped = parseBindingResponse(datagram, transactionId);
      if (mapped) finish(mapped);
    };
    for (let i = 0; i < attempts; i += 1) {
      const send = (): void => void socket.send(request, server.port, server.host);
      if (i === 0) send();
      else timers.push(scheduler.setTimer(send, (timeoutMs * i) / attempts));
    }
    timers.push(scheduler.setTimer(() => finish(null), timeoutMs));
  });
}

/**
 * The endpoints to ask of one configured STUN/TURN server: its port and the port above it, where coturn answers
 * too once it has two listening addresses (RFC 5780 mode). Two endpoints from one socket tell an
 * endpoint-independent mapping from a symmetric one.
 */
export function stunEndpointsFor(host: string, port: number): StunEndpoint[] {
  return port < 65535
    ? [
        { host, port },
        { host, port: port + 1 },
      ]
    : [{ host, port }];
}
