import type { IpcContract } from '../../shared/ipc/contract';
import type { NetworkCheckReport } from '../../shared/netcheck/report';
import type { HandlersOf } from '../ipc/handlerTypes';
import { runNetworkCheck, type NetworkCheckOptions } from './runNetworkCheck';
import type { NetworkOptions } from '../base/networkOptions';
import { accountForOpenRoom, type OpenRoomInfo } from './openRoomPortNote';

/** What `netcheck.run` needs. */
export interface NetcheckDeps {
  readonly network: NetworkOptions;
  readonly platform: NodeJS.Platform;
  /** The room this app has open, if any. */
  readonly openRoom: () => OpenRoomInfo | null;
  /** Swappable for tests. */
  readonly run?: (options: NetworkCheckOptions) => Promise<NetworkCheckReport>;
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
  };
}

/** The gateway handler for `netcheck.run`; only one check runs at a time (they bind the same ports). */
export function netcheckHandlers(deps: NetcheckDeps): Pick<HandlersOf<IpcContract>, 'netcheck.run'> {
  const run = deps.run ?? runNetworkCheck;
  let running: Promise<NetworkCheckReport> | null = null;
  return {
    'netcheck.run': () => {
      running ??= run(networkCheckOptionsFor(deps.network, deps.platform))
        .then((report) => accountForOpenRoom(report, deps.openRoom()))
        .finally(() => {
          running = null;
        });
      return running;
    },
  };
}
