import { writeFile } from 'node:fs/promises';
import type { IpcContract } from '../../shared/ipc/contract';
import { IpcError, IpcErrorCode } from '../../shared/ipc/errors';
import type { NetworkCheckReport } from '../../shared/netcheck/report';
import type { HandlersOf } from '../ipc/handlerTypes';
import { runNetworkCheck, type NetworkCheckOptions } from './runNetworkCheck';
import type { StunEndpoint } from './natCheck';
import type { NetworkOptions } from '../base/networkOptions';
import { accountForOpenRoom, type OpenRoomInfo } from './openRoomPortNote';
import { formatNetworkCheckText, reportFileName, type ReportFacts } from './reportText';
import type { DhtNode } from '../reach/internet/dht/dhtNode';
import { systemScheduler } from '../base/scheduler';

/** What `netcheck.run` and `netcheck.exportReport` need. */
export interface NetcheckDeps {
  readonly network: NetworkOptions;
  readonly platform: NodeJS.Platform;
  /** The room this app has open, if any. */
  readonly openRoom: () => OpenRoomInfo | null;
  /** The app and its log folder, for the exported report. */
  readonly facts: ReportFacts;
  /**
   * Asks the player where to save a file (the desktop app's save dialog), resolving null when they cancel;
   * absent where there is no dialog (the browser dev mode), so saving is refused there.
   */
  readonly chooseSavePath?: (suggestedName: string) => Promise<string | null>;
  /** The STUN endpoints for the NAT-type check (from the internet-room settings); none skips it. */
  readonly stunServers?: () => Promise<readonly StunEndpoint[]>;
  /** The DHT node whose view of this machine's NAT the check reports; absent: the DHT is off. */
  readonly dht?: DhtNode;
  /** Swappable for tests. */
  readonly run?: (options: NetworkCheckOptions) => Promise<NetworkCheckReport>;
  readonly writeText?: (path: string, text: string) => Promise<void>;
}

/** The check's options for this backend's network settings (tests: loopback ports and targets only). */
export function networkCheckOptionsFor(network: NetworkOptions, platform: NodeJS.Platform): NetworkCheckOptions {
  return {
    platform,
    discoveryPort: network.discoveryPort,
    gamePort: network.defaultGamePort,
    bindAddress: network.bindAddress,
    ...(network.networkInterfaces ? { networkInterfaces: network.networkInterfaces } : {}),
    ...(network.selfTestTargets ? { selfTest: { targets: [...network.selfTestTargets] } } : {}),
    router: {
      gateways: network.routerGateways,
      ssdpTargets: network.ssdpTargets,
      ...(network.networkInterfaces ? { networkInterfaces: network.networkInterfaces } : {}),
    },
  };
}

/**
 * The gateway handlers for the network check: `netcheck.run` (one check at a time: they bind the same ports)
 * and `netcheck.exportReport`, the last report as text for a support request, optionally saved to a file.
 */
export function netcheckHandlers(
  deps: NetcheckDeps,
): Pick<HandlersOf<IpcContract>, 'netcheck.run' | 'netcheck.exportReport'> {
  const run = deps.run ?? runNetworkCheck;
  const writeText = deps.writeText ?? ((path: string, text: string) => writeFile(path, text, 'utf8'));
  let running: Promise<NetworkCheckReport> | null = null;
  let last: NetworkCheckReport | null = null;
  return {
    'netcheck.run': () => {
      running ??= (deps.stunServers?.() ?? Promise.resolve([]))
        .catch(() => [] as readonly StunEndpoint[])
        .then((servers) => {
          // A room open on another port is the port friends need: the check and its firewall tips name that one.
          const room = deps.openRoom();
          const options = networkCheckOptionsFor(deps.network, deps.platform);
          return run({
            ...options,
            ...(room ? { gamePort: room.port } : {}),
            nat: { servers },
            dht: { dht: deps.dht, scheduler: systemScheduler },
          });
        })
        .then((report) => (last = accountForOpenRoom(report, deps.openRoom())))
        .finally(() => {
          running = null;
        });
      return running;
    },
    'netcheck.exportReport': async ({ save }) => {
      if (!last) {
        throw new IpcError(IpcErrorCode.FAILED_PRECONDITION, 'Run the network check first, then export its report.');
      }
      const text = formatNetworkCheckText(last, deps.facts);
      if (!save) return { text, savedTo: null };
      if (!deps.chooseSavePath) {
        throw new IpcError(IpcErrorCode.UNAVAILABLE, 'Saving a file needs the desktop app; copy the report instead.');
      }
      const path = await deps.chooseSavePath(reportFileName(last.checkedAt));
      if (path === null) return { text, savedTo: null };
      try {
        await writeText(path, text);
      } catch (error) {
        const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
        throw new IpcError(IpcErrorCode.UNAVAILABLE, `Could not save the report to ${path} (${reason}).`);
      }
      return { text, savedTo: path };
    },
  };
}
