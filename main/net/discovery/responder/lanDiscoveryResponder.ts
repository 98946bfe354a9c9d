import { networkInterfaces } from 'node:os';
import { consoleLogger } from '../../../base/logger';
import type { DatagramSource } from '../../endpoint/datagramSocket';
import { backgroundScheduler } from '../../../base/scheduler';
import { defaultDiscoveryPortRegistry } from '../discoveryPortRegistry';
import { DISCOVERY } from '../advert/discoveryProtocol';
import {
  buildReferenceReply,
  buildRichReply,
  parseDiscoveryReply,
  randomInstanceId,
  type DiscoveryAdvert,
} from '../advert/discoveryReply';
import { parseDiscoveryRequest } from '../advert/discoveryRequest';
import { defaultBroadcastTargets } from '../interfaceTargets';
import {
  isValidCount,
  validateLanDiscoveryOptions,
  type LanDiscoveryHandle,
  type LanDiscoveryOptions,
  type LanDiscoveryStats,
} from './lanDiscoveryOptions';
import { createRateLimiter } from '../../../base/rateLimiter';
import { sendDatagram, type SendFailure } from '../sendDatagram';
import { createConnectedSourceFilter } from '../sourceFilter';

export type {
  LanDiscoveryExtraInfo,
  LanDiscoveryHandle,
  LanDiscoveryOptions,
  LanDiscoveryStats,
} from './lanDiscoveryOptions';

/**
 * Answers gale.net LAN discovery requests exactly like the reference server (so Python searchers list us), and
 * LAN Party queries with extra fields. Only loopback and directly connected sources are answered, within a
 * per-source and total rate limit; anything malformed or oversized is dropped and counted, never thrown.
 */
export async function startLanDiscovery(options: LanDiscoveryOptions): Promise<LanDiscoveryHandle> {
  validateLanDiscoveryOptions(options);
  const scheduler = options.scheduler ?? backgroundScheduler;
  const logger = options.logger ?? consoleLogger('lan-discovery');
  const readInterfaces = options.networkInterfaces ?? networkInterfaces;
  const registry = options.registry ?? defaultDiscoveryPortRegistry;
  const instanceId = options.instanceId ?? randomInstanceId();
  const isAllowedSource = options.isAllowedSource ?? createConnectedSourceFilter(() => scheduler.now(), readInterfaces);
  const perSource = createRateLimiter(options.rateLimit?.perSource ?? { burst: 5, perSecond: 2 }, scheduler);
  const total = createRateLimiter(options.rateLimit?.total ?? { burst: 50, perSecond: 50 }, scheduler);
  const stats: LanDiscoveryStats = {
    requests: 0,
    replies: 0,
    announcements: 0,
    heardAdverts: 0,
    ignoredMalformed: 0,
    ignoredForeignSource: 0,
    ignoredRateLimited: 0,
    infoErrors: 0,
    sendErrors: 0,
  };
  let name = options.name;
  const lease = await registry.acquire(options.port ?? DISCOVERY.DEFAULT_PORT, options.bindAddress ?? '0.0.0.0');

  /** The current advert, or undefined when the game's callbacks fail (then we stay silent rather than lie). */
  const currentAdvert = (rich: boolean): DiscoveryAdvert | undefined => {
    try {
      const playerCount = options.getPlayerCount();
      if (!isValidCount(playerCount)) throw new TypeError(`player count ${String(playerCount)} is not a count`);
      if (!rich) return { name, port: options.gamePort, playerCount };
      const extra = options.getExtraInfo?.() ?? {};
      return {
        name,
        port: options.gamePort,
        playerCount,
        protocolVersion: DISCOVERY.PROTOCOL_VERSION,
        ...(isValidCount(extra.capacity) ? { capacity: extra.capacity } : {}),
        ...(typeof extra.passwordProtected === 'boolean' ? { passwordProtected: extra.passwordProtected } : {}),
        ...(typeof extra.gameName === 'string' ? { gameName: extra.gameName } : {}),
        ...(typeof extra.inRound === 'boolean' ? { inRound: extra.inRound } : {}),
        ...(typeof extra.appVersion === 'string' ? { appVersion: extra.appVersion } : {}),
        ...(isValidCount(extra.lobbyProtocol) ? { lobbyProtocol: extra.lobbyProtocol } : {}),
        ...(typeof extra.hostName === 'string' ? { hostName: extra.hostName } : {}),
        instanceId,
      };
    } catch (error) {
      stats.infoErrors += 1;
      logger.warn('LAN discovery could not read the server info', { error: String(error) });
      return undefined;
    }
  };

  const send = async (datagram: Uint8Array, port: number, target: string): Promise<SendFailure | undefined> => {
    const failure = await sendDatagram(lease.socket, datagram, port, target);
    if (failure) {
      stats.sendErrors += 1;
      logger.warn('LAN discovery send failed', { ...failure });
    }
    return failure;
  };

  const onDatagram = (datagram: Uint8Array, from: DatagramSource): void => {
    const request = parseDiscoveryRequest(datagram);
    if (!request) {
      if (parseDiscoveryReply(datagram)) stats.heardAdverts += 1;
      else stats.ignoredMalformed += 1;
      return;
    }
    stats.requests += 1;
    if (!isAllowedSource(from.address)) {
      stats.ignoredForeignSource += 1;
      return;
    }
    if (!perSource.allow(from.address) || !total.allow('*')) {
      stats.ignoredRateLimited += 1;
      return;
    }
    const advert = currentAdvert(request.kind === 'lanparty');
    if (!advert) return;
    let reply =
      request.kind === 'lanparty'
        ? buildRichReply({ ...advert, ...(request.nonce !== undefined ? { nonce: request.nonce } : {}) })
        : buildReferenceReply(advert);
    // Never answer with more bytes than the query carried, except the reference's own small reply.
    if (request.kind === 'lanparty' && reply.length > request.size) reply = buildReferenceReply(advert);
    stats.replies += 1;
    // send resolves with its failure (counted and logged), it never rejects.
    void send(reply, from.port, from.address);
  };

  const unsubscribe = lease.subscribe(onDatagram);
  let closed = false;

  const announceNow = async (): Promise<SendFailure[]> => {
    if (closed || !options.announce) return [];
    const advert = currentAdvert(true);
    if (!advert) return [];
    const targets = options.announce.targets ?? defaultBroadcastTargets(readInterfaces());
    const datagram = buildRichReply(advert);
    stats.announcements += 1;
    const failures = await Promise.all(targets.map((target) => send(datagram, lease.port, target)));
    return failures.filter((failure): failure is SendFailure => failure !== undefined);
  };

  const timer = options.announce
    ? scheduler.setRepeating(() => void announceNow(), options.announce.intervalMs)
    : undefined;
  if (options.announce) void announceNow();

  return {
    port: lease.port,
    instanceId,
    setName(next) {
      if (typeof next !== 'string') throw new TypeError('name must be a string');
      name = next;
    },
    announceNow,
    stats: () => ({ ...stats }),
    async close() {
      if (closed) return;
      closed = true;
      if (timer !== undefined) scheduler.clearTimer(timer);
      unsubscribe();
      await lease.release();
    },
  };
}
