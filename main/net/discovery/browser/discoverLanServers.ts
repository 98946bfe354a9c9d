import type { Socket } from 'node:dgram';
import { networkInterfaces } from 'node:os';
import { consoleLogger, type Logger } from '../../../base/logger';
import type { NetworkInterfacesLike } from '../../../base/networkOptions';
import { systemScheduler, type Scheduler } from '../../../base/scheduler';
import { serverKey, toServerInfo, type ServerInfo } from './browsedServerTable';
import { DISCOVERY } from '../advert/discoveryProtocol';
import { buildDiscoveryQuery } from '../advert/discoveryRequest';
import { randomInstanceId } from '../advert/discoveryReply';
import { defaultBroadcastTargets } from '../interfaceTargets';
import { openLanQuerySocket } from './lanQuerySocket';
import type { SendFailure } from '../sendDatagram';
import { createReplySourceFilter } from '../sourceFilter';

/** Options for {@link discoverLanServers}. */
export interface DiscoverLanServersOptions {
  /** Discovery port the servers listen on; default 9998. */
  readonly port?: number;
  /** How long to collect replies, in milliseconds; default 1000 (the reference's 1 s). */
  readonly timeoutMs?: number;
  /** Destinations; default every interface's directed broadcast plus 255.255.255.255. */
  readonly targets?: readonly string[];
  /** Query rounds, spread over the first half of the timeout, against packet loss; default 2. */
  readonly attempts?: number;
  readonly bindAddress?: string;
  /** Our own id, sent in queries. */
  readonly instanceId?: string;
  /** Servers to leave out, e.g. the one this process hosts. */
  readonly ignoreInstanceIds?: readonly string[];
  readonly networkInterfaces?: () => NetworkInterfacesLike;
  /** Which reply sources are believed; default loopback, connected subnets and explicit targets. */
  readonly isAllowedSource?: (address: string) => boolean;
  /** Told about each destination that could not be sent to (EACCES, ENETUNREACH, EHOSTUNREACH…). */
  readonly onSendError?: (failure: SendFailure) => void;
  /** Where survivable trouble (send errors, socket errors) is reported; default the console. */
  readonly logger?: Logger;
  readonly createSocket?: () => Socket;
  readonly platform?: NodeJS.Platform;
  /** Clock and timers of the rounds and the collection window; default the real ones. */
  readonly scheduler?: Scheduler;
}

/**
 * Broadcasts a discovery query and collects replies for `timeoutMs`, like the reference's discover_lan_servers,
 * from LAN Party and reference servers alike. A server heard on several interfaces is listed once (by instance
 * id), the first address that answered winning; each entry reflects the server's latest reply.
 */
export async function discoverLanServers(options: DiscoverLanServersOptions = {}): Promise<ServerInfo[]> {
  const port = options.port ?? DISCOVERY.DEFAULT_PORT;
  const timeoutMs = options.timeoutMs ?? 1000;
  const attempts = Math.max(1, Math.floor(options.attempts ?? 2));
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new RangeError(`invalid discovery port ${port}`);
  if (!(timeoutMs >= 0)) throw new RangeError(`invalid timeoutMs ${timeoutMs}`);
  const scheduler = options.scheduler ?? systemScheduler;
  const delay = (ms: number): Promise<void> => new Promise((resolve) => scheduler.setTimer(resolve, ms));
  const readInterfaces = options.networkInterfaces ?? networkInterfaces;
  const targets = options.targets ?? defaultBroadcastTargets(readInterfaces());
  const ignored = new Set(options.ignoreInstanceIds ?? []);
  const found = new Map<string, ServerInfo>();
  const socket = await openLanQuerySocket({
    ...(options.bindAddress !== undefined ? { bindAddress: options.bindAddress } : {}),
    ...(options.createSocket ? { createSocket: options.createSocket } : {}),
    ...(options.platform ? { platform: options.platform } : {}),
    logger: options.logger ?? consoleLogger('lan-discovery'),
    isAllowedSource: options.isAllowedSource ?? createReplySourceFilter(targets, () => scheduler.now(), readInterfaces),
    onReply(advert, from) {
      if (advert.instanceId !== undefined && ignored.has(advert.instanceId)) return;
      const info = toServerInfo(advert, from.address);
      const key = serverKey(info);
      const first = found.get(key);
      found.set(key, first ? { ...info, address: first.address } : info);
    },
  });
  try {
    const query = buildDiscoveryQuery({ instanceId: options.instanceId ?? randomInstanceId() });
    const spacing = attempts > 1 ? timeoutMs / 2 / (attempts - 1) : 0;
    const rounds: Promise<void>[] = [];
    for (let attempt = 0; attempt < attempts; attempt += 1) {
      rounds.push(
        delay(attempt * spacing).then(async () => {
          for (const failure of await socket.sendRound(query, port, targets)) {
            try {
              options.onSendError?.(failure);
            } catch {
              // A faulty observer must not abort the search.
            }
          }
        }),
      );
    }
    await Promise.all([delay(timeoutMs), ...rounds]);
    return [...found.values()];
  } finally {
    await socket.close();
  }
}
