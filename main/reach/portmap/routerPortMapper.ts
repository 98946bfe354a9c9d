import { randomBytes as nodeRandomBytes } from 'node:crypto';
import { networkInterfaces as osNetworkInterfaces } from 'node:os';
import { silentLogger, type Logger } from '../../base/logger';
import type { NetworkInterfacesLike } from '../../base/networkOptions';
import { backgroundScheduler, type Scheduler } from '../../base/scheduler';
import { systemWallClock, type WallClock } from '../../base/wallClock';
import type { OpenDatagramSocket } from '../../net/index';
import { openUdpDatagramSocket } from '../../net/index';
import { findDefaultGateways } from './defaultGateway';
import { localAddressTowards } from './localAddressTowards';
import { createMappingRecord, type MappingRecord } from './mappingRecord';
import { createNatPmpClient, removeNatPmpMapping } from './router/natPmpClient';
import { createPcpClient, removePcpMapping } from './router/pcpClient';
import { chooseProtocol, externalAddressFailure, PROTOCOL_PREFERENCE, type ProbeState } from './portMapDecisions';
import type {
  MapPort,
  MapPortRequest,
  PortMapFailure,
  PortMapping,
  PortMapProtocol,
  PortMapResult,
} from './portMapping';
import type {
  MappingHandle,
  RouterContext,
  RouterMapped,
  RouterPorts,
  RouterProbeAnswer,
  RouterProtocolClient,
} from './router/routerProtocol';
import { stunPublicAddress } from './stunPublicAddress';
import { nodeUpnpHttp, type UpnpHttp } from './router/upnpHttp';
import { createUpnpClient, removeUpnpMapping } from './router/upnpClient';
import { Ssdp } from './router/upnpMessages';

/** Options of {@link createRouterPortMapper}, {@link removeLeftoverMappings} and {@link probeRouter}. */
export interface RouterPortMapperOptions {
  /** Where the router is: undefined asks the system for its default gateway; [] turns port mapping off. */
  readonly gateways: readonly string[] | undefined;
  /** Where SSDP searches go besides the gateway: undefined is the multicast group 239.255.255.250. */
  readonly ssdpTargets?: readonly string[] | undefined;
  /** The protocols to try (default all three; a lab forces one). The preference order stays NAT-PMP, PCP, UPnP. */
  readonly protocols?: readonly PortMapProtocol[];
  /** The mapping record (see mappingRecordPath); undefined keeps none, so a crash's mapping lives out its lease. */
  readonly recordFile?: string | undefined;
  /** Lease asked for, seconds; default 3600, renewed at half of what the router grants. */
  readonly leaseSeconds?: number;
  /** How long the probes may take before 'no-router'; default 2000 ms. */
  readonly probeTimeoutMs?: number;
  /** How long a preferred protocol may still answer after a less preferred one did; default 250 ms. */
  readonly preferWindowMs?: number;
  /** How long one mapping, deletion or HTTP exchange may take; default 2000 ms. */
  readonly requestTimeoutMs?: number;
  /** The router's ports; tests move them off 5351 and 1900. */
  readonly ports?: Partial<RouterPorts>;
  readonly scheduler?: Scheduler;
  readonly wallClock?: WallClock;
  readonly openSocket?: OpenDatagramSocket;
  readonly http?: UpnpHttp;
  readonly networkInterfaces?: (() => NetworkInterfacesLike) | undefined;
  readonly randomBytes?: (size: number) => Uint8Array;
  readonly logger?: Logger;
  /** The system's default gateways (used when `gateways` is undefined). */
  readonly findGateways?: () => Promise<string[]>;
  /** Whether a process still runs (a leftover of a live process is its own, not a crash's). */
  readonly isProcessAlive?: (pid: number) => boolean;
}

/** What the network check learns of the router. */
export interface RouterProbeReport {
  /** The gateway asked; undefined when there is none (or port mapping is off). */
  readonly gateway: string | undefined;
  /** The protocols that answered, in preference order. */
  readonly offers: readonly PortMapProtocol[];
  /** The external address NAT-PMP or UPnP reported, if any did. */
  readonly externalAddress: string | undefined;
}

const DEFAULT_LEASE_SECONDS = 3600;
/** A failed renewal is tried again this soon (the lease still has half its time). */
const RENEW_RETRY_MS = 30_000;
/** The shortest renewal period, so a router granting a tiny lease is not asked in a tight loop. */
const MIN_RENEW_MS = 10_000;

/** Handles this process mapped and has not closed: a leftover with our pid that is not one of them is a crash's. */
const liveHandles = new Set<string>();

/**
 * The router port-mapping client: probes NAT-PMP, PCP and UPnP IGD at once, takes the first good answer (waiting
 * ~250 ms for a preferred one), maps the room's UDP port taking whatever external port the router assigns, renews at
 * half the lease, records it for the next start, and tells honestly when the mapping would not help (private or
 * CGNAT external address, a second NAT). Never rejects.
 */
export function createRouterPortMapper(options: RouterPortMapperOptions): MapPort {
  const record = options.recordFile ? createMappingRecord(options.recordFile) : undefined;
  const logger = options.logger ?? silentLogger;
  return async (request) => {
    try {
      return await mapPort(options, record, request);
    } catch (error) {
      logger.warn('port mapping failed', error);
      return { ok: false, failure: { kind: 'no-router' } };
    }
  };
}

/**
 * Removes the mappings a crashed run left (recorded, its process gone, lease not yet over) and forgets them; call it
 * at start, before mapping. Resolves with how many the routers confirmed removed; never rejects.
 */
export async function removeLeftoverMappings(options: RouterPortMapperOptions): Promise<number> {
  if (!options.recordFile) return 0;
  const record = createMappingRecord(options.recordFile);
  const isAlive = options.isProcessAlive ?? processIsAlive;
  const now = (options.wallClock ?? systemWallClock)();
  let removed = 0;
  try {
    for (const entry of await record.read()) {
      const own = entry.pid === process.pid;
      if (own ? liveHandles.has(handleKey(entry)) : isAlive(entry.pid)) continue;
      if (entry.expiresAt === 0 || entry.expiresAt > now) {
        const context = routerContext(options, entry.gateway, entry.clientAddress);
        if (await removeMapping(context, entry)) removed += 1;
      }
      // Forgotten even when the router did not confirm: it is gone, or the lease ends on its own.
      await record.remove(entry);
    }
  } catch (error) {
    (options.logger ?? silentLogger).warn('could not clear leftover port mappings', error);
  }
  return removed;
}

/** Which protocols the router answers and the external address it reports, for the network check. Never rejects. */
export async function probeRouter(options: RouterPortMapperOptions): Promise<RouterProbeReport> {
  const target = await findTarget(options);
  if (!target) return { gateway: undefined, offers: [], externalAddress: undefined };
  const context = routerContext(options, target.gateway, target.clientAddress);
  const clients = makeClients(context, options.protocols);
  const timeoutMs = options.probeTimeoutMs ?? 2000;
  const answers = await Promise.all(clients.map((client) => client.probe(timeoutMs).catch(() => null)));
  const offers = clients.filter((_, i) => answers[i]).map((client) => client.protocol);
  const externalAddress = answers.find((answer) => answer?.externalAddress !== undefined)?.externalAddress;
  return { gateway: target.gateway, offers, externalAddress };
}

async function mapPort(
  options: RouterPortMapperOptions,
  record: MappingRecord | undefined,
  { internalPort, stunServer }: MapPortRequest,
): Promise<PortMapResult> {
  const logger = options.logger ?? silentLogger;
  const target = await findTarget(options);
  if (!target) return failed({ kind: 'no-router' });
  const context = routerContext(options, target.gateway, target.clientAddress);
  const clients = makeClients(context, options.protocols);
  const answered = await probe(
    context.scheduler,
    clients,
    options.probeTimeoutMs ?? 2000,
    options.preferWindowMs ?? 250,
  );
  if (answered.length === 0) return failed({ kind: 'no-router' });

  const lease = options.leaseSeconds ?? DEFAULT_LEASE_SECONDS;
  let refusal: PortMapFailure | undefined;
  for (const client of answered) {
    const attempt = await client.map(internalPort, lease);
    if (!attempt.ok) {
      logger.warn(`${client.protocol} mapping refused: ${attempt.detail}`);
      refusal ??= { kind: 'refused', protocol: client.protocol, detail: attempt.detail };
      continue;
    }
    const mapped = attempt.mapped;
    const failure = await judge(context, client.protocol, mapped, stunServer);
    if (failure) {
      await removeMapping(context, mapped.handle);
      return failed(failure);
    }
    return { ok: true, mapping: await keep(options, context, record, client, mapped) };
  }
  return failed(refusal ?? { kind: 'no-router' });
}

/** Whether the mapping can be reached from the internet; the failure to report when not. */
async function judge(
  context: RouterContext,
  protocol: PortMapProtocol,
  mapped: RouterMapped,
  findStunServer: MapPortRequest['stunServer'],
): Promise<PortMapFailure | undefined> {
  if (mapped.externalAddress === '0.0.0.0')
    return { kind: 'refused', protocol, detail: 'the router has no external address' };
  const early = externalAddressFailure(mapped.externalAddress, undefined);
  if (early || !findStunServer) return early;
  const server = await findStunServer().catch(() => undefined);
  if (!server) return undefined;
  const stunAddress = await stunPublicAddress({
    server,
    openSocket: context.openSocket,
    scheduler: context.scheduler,
    randomBytes: context.randomBytes,
    timeoutMs: context.requestTimeoutMs,
  });
  return externalAddressFailure(mapped.externalAddress, stunAddress);
}

/** Records the mapping, renews it at half its lease, and hands out the room's view of it. */
async function keep(
  options: RouterPortMapperOptions,
  context: RouterContext,
  record: MappingRecord | undefined,
  client: RouterProtocolClient,
  first: RouterMapped,
): Promise<PortMapping> {
  const logger = options.logger ?? silentLogger;
  const wallClock = options.wallClock ?? systemWallClock;
  const { scheduler } = context;
  let current = first;
  let timer: unknown;
  let closing: Promise<void> | undefined;
  const moved = new Set<() => void>();
  const remember = async (mapped: RouterMapped): Promise<void> => {
    liveHandles.add(handleKey(mapped.handle));
    const expiresAt = mapped.lifetimeSeconds === 0 ? 0 : wallClock() + mapped.lifetimeSeconds * 1000;
    await record
      ?.add({ ...mapped.handle, pid: process.pid, expiresAt })
      .catch((error: unknown) => logger.warn('could not record the port mapping', error));
  };
  const schedule = (delayMs: number): void => {
    timer = scheduler.setTimer(() => void renew(), delayMs);
  };
  const renew = async (): Promise<void> => {
    const attempt = await client.map(
      current.handle.internalPort,
      options.leaseSeconds ?? DEFAULT_LEASE_SECONDS,
      current.handle,
    );
    if (closing) {
      if (attempt.ok && attempt.mapped.externalPort !== current.externalPort)
        await removeMapping(context, attempt.mapped.handle);
      return;
    }
    if (!attempt.ok) {
      logger.warn(`renewing the ${client.protocol} port mapping failed: ${attempt.detail}`);
      schedule(RENEW_RETRY_MS);
      return;
    }
    const previous = current;
    current = attempt.mapped;
    if (current.externalPort !== previous.externalPort) {
      logger.warn(`the router moved the port mapping from ${previous.externalPort} to ${current.externalPort}`);
      liveHandles.delete(handleKey(previous.handle));
      await record?.remove(previous.handle).catch(() => undefined);
    }
    await remember(current);
    if (current.externalPort !== previous.externalPort || current.externalAddress !== previous.externalAddress) {
      for (const listener of [...moved]) listener();
    }
    if (current.lifetimeSeconds > 0) schedule(renewDelayMs(current.lifetimeSeconds));
  };
  await remember(first);
  if (first.lifetimeSeconds > 0) schedule(renewDelayMs(first.lifetimeSeconds));
  return {
    protocol: client.protocol,
    get externalAddress() {
      return current.externalAddress;
    },
    get externalPort() {
      return current.externalPort;
    },
    internalPort: first.handle.internalPort,
    onMoved: (listener) => {
      moved.add(listener);
      return () => {
        moved.delete(listener);
      };
    },
    close: () =>
      (closing ??= (async () => {
        scheduler.clearTimer(timer);
        const handle = current.handle;
        if (!(await removeMapping(context, handle)))
          logger.warn(`the router did not confirm removing the ${client.protocol} port mapping`);
        liveHandles.delete(handleKey(handle));
        await record?.remove(handle).catch(() => undefined);
      })()),
  };
}

/** Runs the probes at once and resolves with the clients to try, best first, as soon as the choice is made. */
function probe(
  scheduler: Scheduler,
  clients: readonly RouterProtocolClient[],
  timeoutMs: number,
  preferWindowMs: number,
): Promise<RouterProtocolClient[]> {
  const started = scheduler.now();
  const states = new Map<PortMapProtocol, ProbeState>(clients.map((client) => [client.protocol, 'pending']));
  return new Promise((resolve) => {
    let done = false;
    const decide = (): void => {
      if (done) return;
      const choice = chooseProtocol(states, scheduler.now() - started, preferWindowMs);
      if (choice === 'wait') return;
      done = true;
      scheduler.clearTimer(windowTimer);
      scheduler.clearTimer(deadline);
      if (choice === 'none') return resolve([]);
      const usable = PROTOCOL_PREFERENCE.filter(
        (protocol) => protocol === choice.use || states.get(protocol) === 'yes',
      );
      const ordered = [choice.use, ...usable.filter((protocol) => protocol !== choice.use)];
      resolve(ordered.map((protocol) => clients.find((client) => client.protocol === protocol)!));
    };
    const windowTimer = scheduler.setTimer(decide, preferWindowMs);
    // The window closes on time even when a probe is slow to give up (a socket that took long to open, say).
    const deadline = scheduler.setTimer(() => {
      for (const [protocol, state] of states) if (state === 'pending') states.set(protocol, 'no');
      decide();
    }, timeoutMs);
    for (const client of clients) {
      void client
        .probe(timeoutMs)
        .catch((): RouterProbeAnswer | null => null)
        .then((answer) => {
          states.set(client.protocol, answer ? 'yes' : 'no');
          decide();
        });
    }
  });
}

function makeClients(
  context: RouterContext,
  protocols: readonly PortMapProtocol[] | undefined,
): RouterProtocolClient[] {
  const wanted = protocols ?? PROTOCOL_PREFERENCE;
  const make = { 'nat-pmp': createNatPmpClient, pcp: createPcpClient, upnp: createUpnpClient } as const;
  return PROTOCOL_PREFERENCE.filter((protocol) => wanted.includes(protocol)).map((protocol) => make[protocol](context));
}

/** The gateway to ask and our address towards it; undefined when mapping is off or there is no router. */
async function findTarget(
  options: RouterPortMapperOptions,
): Promise<{ gateway: string; clientAddress: string } | undefined> {
  const gateways = options.gateways ?? (await (options.findGateways ?? findDefaultGateways)());
  const gateway = gateways[0];
  if (gateway === undefined) return undefined;
  const clientAddress = localAddressTowards(gateway, (options.networkInterfaces ?? osNetworkInterfaces)());
  if (clientAddress === undefined) {
    (options.logger ?? silentLogger).warn(`no local address towards the gateway ${gateway}`);
    return undefined;
  }
  return { gateway, clientAddress };
}

function routerContext(options: RouterPortMapperOptions, gateway: string, clientAddress: string): RouterContext {
  return {
    gateway,
    clientAddress,
    openSocket: options.openSocket ?? openUdpDatagramSocket,
    http: options.http ?? nodeUpnpHttp,
    scheduler: options.scheduler ?? backgroundScheduler,
    randomBytes: options.randomBytes ?? ((size) => new Uint8Array(nodeRandomBytes(size))),
    ports: { natPmp: 5351, pcp: 5351, ssdp: Ssdp.PORT, ...options.ports },
    ssdpTargets: options.ssdpTargets ?? [Ssdp.ADDRESS],
    requestTimeoutMs: options.requestTimeoutMs ?? 2000,
  };
}

function renewDelayMs(lifetimeSeconds: number): number {
  return Math.max(MIN_RENEW_MS, (lifetimeSeconds * 1000) / 2);
}

function failed(failure: PortMapFailure): PortMapResult {
  return { ok: false, failure };
}

function handleKey(handle: MappingHandle): string {
  return `${handle.gateway}|${handle.protocol}|${handle.externalPort}`;
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Asks the router to delete a mapping with the protocol that made it; false when it did not confirm. Never rejects. */
async function removeMapping(context: RouterContext, handle: MappingHandle): Promise<boolean> {
  try {
    if (handle.protocol === 'nat-pmp') return await removeNatPmpMapping(context, handle);
    if (handle.protocol === 'pcp') return await removePcpMapping(context, handle);
    return await removeUpnpMapping(context, handle);
  } catch {
    return false;
  }
}
