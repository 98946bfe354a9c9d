import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { Candidate, Connection, type CandidatePair } from 'werift-ice';
import type { DatagramSocket, DatagramSource } from '../endpoint/datagramSocket';
import { checkCandidateLine, parseIceParameters, type IceParameters } from './iceParameters';
import { candidateInScope, localSubnets, type LocalSubnet } from './candidateScope';
import { IceConnectError } from './iceConnectError';
import { PointToPointSocket } from './pointToPointSocket';
import { probeTurnAllocation } from './turnProbe';
import { sleep, systemScheduler, type Scheduler, type TimerHandle } from '../../base/scheduler';
import { systemWallClock, type WallClock } from '../../base/wallClock';

/** A STUN server: where this side learns its public (server-reflexive) address. */
export interface StunServer {
  readonly host: string;
  readonly port: number;
}

/** A TURN relay with (time-limited) credentials, e.g. from `mintTurnCredentials`. */
export interface TurnServer extends StunServer {
  readonly username: string;
  readonly password: string;
}

/** Options of {@link createIceSession}. */
export interface IceSessionOptions {
  /** Exactly one side controls (nominates the pair): the host, by our convention. */
  readonly controlling: boolean;
  /** STUN server; when absent the TURN server is asked instead, and with neither no srflx is gathered. */
  readonly stun?: StunServer;
  /** TURN relay; without one, peers behind symmetric NATs or UDP-blocking networks cannot meet. */
  readonly turn?: TurnServer;
  /** Extra host-candidate addresses (werift skips interfaces named veth*, tap*, tun*…). */
  readonly hostAddresses?: readonly string[];
  /** How long `connect` may take before it rejects, seconds. */
  readonly connectTimeoutSeconds: number;
  /**
   * How long only direct pairs are checked before relayed ones join, milliseconds (default 500). werift
   * nominates the first pair that answers and never upgrades it, so without this a relay could beat a
   * direct path that was a few retransmissions away. Both sides should use the same value.
   */
  readonly directFirstMs?: number;
  /**
   * 'udp' (default): a TURN server that did not answer our UDP probe is not given to werift (nor used for STUN),
   * so the relay's failure is known after the probe (~2 s) instead of werift's UDP timeout and TURN-over-TCP retry
   * (~6–15 s). 'udp-then-tcp': werift's own fallback, for networks that block UDP but let TCP through; opt-in only,
   * because werift reconnects a failed TCP allocation on its own and a refused reconnect rejects unhandled (which
   * closes the app: see main/shell/mainProcessGuard.ts).
   */
  readonly turnTransport?: 'udp' | 'udp-then-tcp';
  /**
   * This machine's interface subnets, read at connect: a peer's loopback, private or link-local candidate is
   * checked only when one of them is on its subnet (candidateScope.ts). Default the system's interfaces.
   */
  readonly localSubnets?: () => readonly LocalSubnet[];
  /** The clock of `setupMs` and the timers of connecting; default real time and timers. */
  readonly scheduler?: Scheduler;
  /** For telling an expired TURN credential apart; default the system's. */
  readonly wallClock?: WallClock;
}

/** The pair ICE settled on. */
export interface IcePath {
  /** 'relayed' when either end of the pair is a TURN relay candidate. */
  readonly kind: 'direct' | 'relayed';
  /** Candidate types of the pair: 'host' | 'srflx' | 'prflx' | 'relay'. */
  readonly localType: string;
  readonly remoteType: string;
  /** From `connect()` to a nominated pair, milliseconds. */
  readonly setupMs: number;
}

/** One ICE agent for one peer. Call gather, send the result to the peer, then connect with the peer's. */
export interface IceSession {
  /** Gathers host, server-reflexive and relay candidates; resolves with what to send the peer. Once. */
  gather(): Promise<IceParameters>;
  /** Checks pairs with the peer's (untrusted, validated) parameters; rejects with an {@link IceConnectError}. */
  connect(remote: unknown): Promise<IcePath>;
  /** The datagram path to the peer once connected (sends before that are dropped, as werift does). */
  readonly socket: DatagramSocket;
  /** Why no relay candidate was gathered though a TURN server was given, or undefined. */
  readonly relayProblem: string | undefined;
  /** Closes the agent and its sockets; safe to call twice. */
  close(): Promise<void>;
}

const UNKNOWN: DatagramSource = { address: '0.0.0.0', port: 0 };

/** Creates an ICE session over werift-ice's `Connection`, with only the STUN/TURN servers given (never a public default). */
export function createIceSession(options: IceSessionOptions): IceSession {
  if (!(options.connectTimeoutSeconds > 0 && options.connectTimeoutSeconds <= 600)) {
    throw new RangeError(`connectTimeoutSeconds must be in (0, 600], got ${options.connectTimeoutSeconds}`);
  }
  return new WeriftIceSession(options);
}

class WeriftIceSession implements IceSession {
  relayProblem: string | undefined;
  readonly socket: PointToPointSocket;
  private connection: Connection | undefined;
  private gathering: Promise<IceParameters> | undefined;
  private connecting: Promise<IcePath> | undefined;
  private closing: Promise<void> | undefined;
  private readonly scheduler: Scheduler;
  private receiver: ((datagram: Uint8Array) => void) | undefined;
  private ends: { local: DatagramSource; remote: DatagramSource } | undefined;
  /** Which pairs werift may form: direct ones first, then (after directFirstMs) those through a relay. */
  private pairing: 'direct' | 'relayed' = 'direct';

  constructor(private readonly options: IceSessionOptions) {
    this.scheduler = options.scheduler ?? systemScheduler;
    this.socket = new PointToPointSocket({
      send: async (datagram) => {
        const connection = this.connection;
        if (connection && !this.closing) await connection.send(datagram as Buffer);
      },
      subscribe: (receive) => {
        this.receiver = receive;
        return () => (this.receiver = undefined);
      },
      local: () => this.ends?.local ?? UNKNOWN,
      remote: () => this.ends?.remote ?? UNKNOWN,
      close: () => this.close(),
    });
  }

  gather(): Promise<IceParameters> {
    this.gathering ??= this.runGather();
    return this.gathering;
  }

  connect(remote: unknown): Promise<IcePath> {
    this.connecting ??= this.runConnect(remote);
    return this.connecting;
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      // werift's close() can stay pending on a half-open TURN allocation: never let it hold us up.
      const connection = this.connection;
      if (connection) await Promise.race([connection.close().catch(() => undefined), sleep(2_000, this.scheduler)]);
    })();
    return this.closing;
  }

  private requireConnection(): Connection {
    if (!this.connection) throw new Error('the ICE session has not gathered yet: call gather() first');
    return this.connection;
  }

  private async runGather(): Promise<IceParameters> {
    const { stun, turn, hostAddresses } = this.options;
    const [stunAddress, turnAddress] = await Promise.all([
      stun ? resolveServer(stun, 'STUN') : undefined,
      turn ? resolveServer(turn, 'TURN') : undefined,
    ]);
    if (this.closing) throw new IceConnectError('closed', 'the ICE session was closed');
    // The relay is asked first (one Allocate, freed at once): werift spends 6 s and more (a TCP retry) on
    // refused credentials before giving up silently. Refused, werift is not given them; the server still
    // answers STUN. Unanswered over UDP, werift still tries it (it falls back to TURN over TCP by itself).
    const probe =
      turn && turnAddress
        ? await probeRelay(turn, turnAddress, this.options.wallClock ?? systemWallClock, this.scheduler)
        : undefined;
    this.relayProblem = probe?.problem;
    // UDP only: a relay that ignored UDP would not answer werift's STUN over UDP either.
    const silent = probe?.unanswered === true && (this.options.turnTransport ?? 'udp') === 'udp';
    const relay = probe?.refused || silent ? undefined : turnAddress;
    const stunServer = stunAddress ?? (silent ? undefined : turnAddress);
    const connection = new Connection(this.options.controlling, {
      stunServer,
      turnServer: relay,
      turnUsername: turn?.username,
      turnPassword: turn?.password,
      useIpv4: true,
      useIpv6: false, // srflx and relay candidates are IPv4 only in werift
      additionalHostAddresses: hostAddresses ? [...hostAddresses] : undefined,
      filterCandidatePair: (pair) => throughRelay(pair) === (this.pairing === 'relayed'),
    });
    // Without a STUN server werift falls back to a public Google one: we never send there.
    if (!stunServer) connection.stunServer = undefined;
    this.connection = connection;
    connection.onData.subscribe((data) => this.receiver?.(data));
    await connection.gatherCandidates();
    const candidates = connection.localCandidates.map((candidate) => candidate.toSdp());
    const relayed = connection.localCandidates.some((c) => c.type === 'relay');
    if (relayed)
      this.relayProblem = undefined; // reached after all (over TCP)
    else if (relay && !this.relayProblem) {
      this.relayProblem = `TURN relay ${turn!.host}:${turn!.port} allocated for our probe but gave no relay candidate`;
    }
    if (candidates.length === 0)
      throw new IceConnectError('no-candidates', 'no network interface gave an ICE candidate');
    return { usernameFragment: connection.localUsername, password: connection.localPassword, candidates };
  }

  private async runConnect(untrusted: unknown): Promise<IcePath> {
    const remote = parseIceParameters(untrusted);
    await this.gather();
    const connection = this.requireConnection();
    const lines = remote.candidates.map((line) => ({ line, checked: checkCandidateLine(line) }));
    const subnets = (this.options.localSubnets ?? localSubnets)();
    const usable = lines.filter(
      (entry) => entry.checked !== undefined && candidateInScope(entry.checked.host, subnets),
    );
    if (usable.length === 0) {
      throw new IceConnectError(
        'no-candidates',
        'the peer offered no usable candidate (UDP over IPv4, at a public address or on a network we are on)',
      );
    }
    connection.setRemoteParams({
      iceLite: false,
      usernameFragment: remote.usernameFragment,
      password: remote.password,
    });
    const relayLines = usable.filter((entry) => entry.checked?.type === 'relay');
    const directLines = usable.filter((entry) => entry.checked?.type !== 'relay');
    for (const { line } of directLines) await connection.addRemoteCandidate(Candidate.fromSdp(line));
    const anyRelay = relayLines.length > 0 || connection.localCandidates.some((c) => c.type === 'relay');
    const { scheduler } = this;
    const started = scheduler.now();
    const seconds = this.options.connectTimeoutSeconds;
    let timer: TimerHandle;
    let relayTimer: TimerHandle;
    const addRelayed = async () => {
      if (connection.nominated || this.closing) return;
      // werift pairs each fresh Candidate object again; the filter now lets only pairs through a relay form.
      this.pairing = 'relayed';
      for (const { line } of [...relayLines, ...directLines])
        await connection.addRemoteCandidate(Candidate.fromSdp(line));
      await connection.addRemoteCandidate(undefined);
    };
    // Until the end of candidates is signalled werift keeps checking, so relayed pairs can still join.
    // A relayed candidate werift refuses leaves its pairs unchecked: the connect below then fails at its deadline.
    if (anyRelay)
      relayTimer = scheduler.setTimer(
        () => void addRelayed().catch(() => undefined),
        this.options.directFirstMs ?? 500,
      );
    else await connection.addRemoteCandidate(undefined);
    // werift's connect() never rejects when every check fails: it stays pending, so it races our timer.
    const outcome = await Promise.race([
      connection.connect().then(
        () => 'connected' as const,
        (error: unknown) => error as Error,
      ),
      new Promise<'timeout'>((resolve) => (timer = scheduler.setTimer(() => resolve('timeout'), seconds * 1000))),
    ]);
    scheduler.clearTimer(relayTimer);
    scheduler.clearTimer(timer);
    if (this.closing) throw new IceConnectError('closed', 'the ICE session was closed while connecting');
    const pair = connection.nominated;
    if (outcome === 'connected' && pair) {
      this.ends = { local: endpointOf(pair, 'local'), remote: endpointOf(pair, 'remote') };
      const localType = pair.localCandidate.type;
      const remoteType = pair.remoteCandidate.type;
      // A peer-reflexive remote at one of the peer's relay addresses is the peer's relay answering.
      const peerRelay = relayLines.some(
        ({ checked }) => checked?.host === pair.remoteCandidate.host && checked.port === pair.remoteCandidate.port,
      );
      const kind = localType === 'relay' || remoteType === 'relay' || peerRelay ? 'relayed' : 'direct';
      return { kind, localType, remoteType, setupMs: scheduler.now() - started };
    }
    throw this.failure(outcome instanceof Error ? outcome.message : undefined, seconds, relayLines.length > 0);
  }

  private failure(detail: string | undefined, seconds: number, remoteHasRelay: boolean): IceConnectError {
    if (this.relayProblem) return new IceConnectError('relay-failed', this.relayProblem);
    if (!this.options.turn && !remoteHasRelay) {
      return new IceConnectError(
        'no-relay',
        'host behind a network that blocks UDP and no relay configured: no direct path was found and there is no TURN relay to fall back on',
      );
    }
    return new IceConnectError(
      'timeout',
      `no path to the peer within ${seconds} s: every direct and relayed check failed${detail ? ` (${detail})` : ''}`,
    );
  }
}

function throughRelay(pair: CandidatePair): boolean {
  return pair.localCandidate.type === 'relay' || pair.remoteCandidate.type === 'relay';
}

function endpointOf(pair: CandidatePair, side: 'local' | 'remote'): DatagramSource {
  const candidate = side === 'local' ? pair.localCandidate : pair.remoteCandidate;
  return { address: candidate.host, port: candidate.port };
}

async function resolveServer(server: StunServer, what: string): Promise<[string, number]> {
  if (!Number.isInteger(server.port) || server.port < 1 || server.port > 65_535) {
    throw new RangeError(`${what} server port must be 1–65535, got ${server.port}`);
  }
  if (isIP(server.host) === 4) return [server.host, server.port];
  try {
    const { address } = await lookup(server.host, { family: 4 });
    return [address, server.port];
  } catch (error) {
    throw new IceConnectError(
      'relay-failed',
      `cannot resolve the ${what} server "${server.host}": ${(error as Error).message}`,
    );
  }
}

/** werift logs and swallows a failed TURN allocation: one Allocate of our own says why (see turnProbe.ts). */
async function probeRelay(
  turn: TurnServer,
  address: [string, number],
  wallClock: WallClock,
  scheduler: Scheduler,
): Promise<{ problem?: string; refused: boolean; unanswered?: boolean }> {
  const where = `${turn.host}:${turn.port}`;
  const expired = credentialsExpired(turn.username, wallClock());
  const result = await probeTurnAllocation(address, turn.username, turn.password, undefined, { scheduler });
  switch (result.outcome) {
    case 'refused':
      return {
        problem: `TURN relay ${where} refused the credentials${expired ? ' (they expired)' : ' (wrong or expired)'}`,
        refused: true,
      };
    case 'unreachable':
      return {
        problem: `TURN relay ${where} did not answer (unreachable, or UDP to it is blocked)`,
        refused: false,
        unanswered: true,
      };
    case 'error':
      return { problem: `TURN relay ${where} refused an allocation: ${result.reason}`, refused: true };
    case 'allocated':
      return { refused: false };
  }
}

/** A TURN REST username (`<unix expiry>:<id>`) whose expiry has passed; false for any other username. */
function credentialsExpired(username: string, nowMs: number): boolean {
  const expiry = Number(username.split(':')[0]);
  return username.includes(':') && Number.isInteger(expiry) && expiry > 1e9 && expiry * 1000 < nowMs;
}
