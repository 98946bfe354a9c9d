import { networkInterfaces as osNetworkInterfaces } from 'node:os';
import { defaultBroadcastTargets, type DiscoveryPortRegistry, type NetworkInterfacesLike } from '../net/discovery';
import { DEFAULT_RECV_BUFFER } from '../net/index';
import { LAN_PARTY_PORTS } from '../../shared/netcheck/ports';
import type { NetworkCheckReport, SelfDiscoveryReport } from '../../shared/netcheck/report';
import { findingAdvice } from './findingAdvice';
import { describeInterfaces } from './interfaceReport';
import { platformAdvice } from './platformAdvice';
import { checkNat, type StunEndpoint } from './natCheck';
import { checkPort, type OpenUdp } from './portCheck';
import { checkRouter } from './routerCheck';
import { checkDht, type DhtCheckOptions } from './dhtCheck';
import type { RouterPortMapperOptions } from '../reach/portmap/routerPortMapper';
import { describeReceiveBuffer } from './receiveBuffer';
import { checkSelfDiscovery, defaultSelfTestTargets } from './selfDiscovery';

/** Options of {@link runNetworkCheck}; every default is the real machine, every one injectable for tests. */
export interface NetworkCheckOptions {
  /** A `process.platform` value; picks the advice and the self-test targets. */
  readonly platform?: NodeJS.Platform;
  readonly networkInterfaces?: () => NetworkInterfacesLike;
  /** Default 9998; 0 checks "any free port" (tests). */
  readonly discoveryPort?: number;
  /** Default {@link LAN_PARTY_PORTS.GAME}; 0 checks "any free port" (tests). */
  readonly gamePort?: number;
  /** Where the ports are bound; default 0.0.0.0, as the app binds them. */
  readonly bindAddress?: string;
  /** The own-discovery test; `false` skips it. Targets must be loopback addresses. */
  readonly selfTest?:
    | false
    | {
        readonly targets?: readonly string[];
        readonly timeoutMs?: number;
        readonly registry?: DiscoveryPortRegistry;
        readonly acceptSource?: (address: string) => boolean;
      };
  /**
   * STUN servers for the NAT-type check (the configured TURN/STUN server, ideally on two ports); none or `false`
   * skips it. These are the only non-loopback destinations the check ever sends to.
   */
  readonly nat?: false | { readonly servers: readonly StunEndpoint[]; readonly timeoutMs?: number };
  /**
   * Where to ask the home router what it offers for port mapping (the backend's routerGateways and ssdpTargets);
   * absent or gateways [] skips it. Besides STUN, the only non-loopback destination: the gateway (and SSDP's group).
   */
  readonly router?: RouterPortMapperOptions;
  /** How this machine looks to the DHT (its node joins it, when the DHT is on); absent: not checked. */
  readonly dht?: DhtCheckOptions;
  readonly openUdp?: OpenUdp;
  /** The app's executable, named in the Windows firewall command; default process.execPath. */
  readonly execPath?: string;
  readonly now?: () => Date;
}

const SKIPPED: SelfDiscoveryReport = {
  status: 'skipped',
  port: null,
  targets: [],
  sendFailures: [],
  message: 'The discovery self-test was skipped.',
};

/**
 * Checks this machine for LAN play and returns a plain-data report: the interfaces searched and their broadcast
 * addresses, whether the discovery and game ports can be bound, whether a discovery request to loopback is
 * heard and answered here, the receive buffer the OS grants, and advice for the platform. Sends only to the
 * self-test's loopback targets. Never rejects on network trouble: failures are part of the report.
 */
export async function runNetworkCheck(options: NetworkCheckOptions = {}): Promise<NetworkCheckReport> {
  const platform = options.platform ?? process.platform;
  const interfaces = (options.networkInterfaces ?? osNetworkInterfaces)();
  const discoveryPort = options.discoveryPort ?? LAN_PARTY_PORTS.DISCOVERY;
  const gamePort = options.gamePort ?? LAN_PARTY_PORTS.GAME;
  const bindAddress = options.bindAddress ?? '0.0.0.0';
  const startedAt = (options.now ?? (() => new Date()))();

  // One at a time: the self-test below binds the discovery port again once this check has let it go.
  const discovery = await checkPort('discovery', discoveryPort, bindAddress, options.openUdp);
  const game = await checkPort('game', gamePort, bindAddress, options.openUdp);
  const selfDiscovery =
    options.selfTest === false
      ? SKIPPED
      : await checkSelfDiscovery({
          port: discoveryPort,
          gamePort: gamePort || LAN_PARTY_PORTS.GAME,
          targets: options.selfTest?.targets ?? defaultSelfTestTargets(platform),
          timeoutMs: options.selfTest?.timeoutMs ?? 600,
          platform,
          networkInterfaces: () => interfaces,
          ...(options.selfTest?.registry ? { registry: options.selfTest.registry } : {}),
          ...(options.selfTest?.acceptSource ? { acceptSource: options.selfTest.acceptSource } : {}),
        });

  const [nat, router, dht] = await Promise.all([
    checkNat({
      servers: options.nat ? options.nat.servers : [],
      localAddresses: describeInterfaces(interfaces).map((row) => row.address),
      bindAddress,
      ...(options.nat && options.nat.timeoutMs !== undefined ? { timeoutMs: options.nat.timeoutMs } : {}),
      ...(options.openUdp ? { openUdp: options.openUdp } : {}),
    }),
    checkRouter(options.router ?? { gateways: [] }),
    options.dht ? checkDht(options.dht) : Promise.resolve(undefined),
  ]);

  const findings = {
    interfaces: describeInterfaces(interfaces),
    ports: [discovery.check, game.check],
    selfDiscovery,
    receiveBuffer: describeReceiveBuffer(
      DEFAULT_RECV_BUFFER,
      game.recvBufferSize ?? discovery.recvBufferSize,
      platform,
    ),
  };
  const problems = findingAdvice(findings, platform);
  // Tips name the fixed ports even when a test checked "any free port".
  const tips = platformAdvice(platform, {
    discoveryPort: discoveryPort || LAN_PARTY_PORTS.DISCOVERY,
    gamePort: gamePort || LAN_PARTY_PORTS.GAME,
    execPath: options.execPath ?? process.execPath,
  });
  return {
    version: 1,
    platform,
    checkedAt: startedAt.toISOString(),
    ...findings,
    broadcastTargets: defaultBroadcastTargets(interfaces),
    nat,
    router,
    ...(dht ? { dht } : {}),
    advice: [...problems, ...tips],
    ok: !problems.some((item) => item.severity === 'problem'),
  };
}
