import {
  discoverLanServers,
  startLanDiscovery,
  type DiscoveryPortRegistry,
  type LanDiscoveryHandle,
  type NetworkInterfacesLike,
  type SendFailure,
} from '../net/discovery';
import { silentLogger } from '../base/logger';
import type { SelfDiscoveryReport } from '../../shared/netcheck/report';

/** Options of {@link checkSelfDiscovery}. */
export interface SelfDiscoveryOptions {
  /** Discovery port to listen on and search; 0 binds a free one (tests). */
  readonly port: number;
  /** Game port named in the test responder's answer (any valid port). */
  readonly gamePort: number;
  /** Where the request goes: loopback only. */
  readonly targets: readonly string[];
  readonly timeoutMs: number;
  /** Default: the process-wide registry, so the test shares the port with a room this process is hosting. */
  readonly registry?: DiscoveryPortRegistry;
  /** Which request sources the test responder answers; default loopback and connected subnets. */
  readonly acceptSource?: (address: string) => boolean;
  readonly networkInterfaces?: () => NetworkInterfacesLike;
  readonly platform?: NodeJS.Platform;
}

/** The default self-test targets: Linux delivers 127.255.255.255 to every socket sharing the port, unicast to one. */
export function defaultSelfTestTargets(platform: string): string[] {
  return platform === 'linux' ? ['127.255.255.255', '127.0.0.1'] : ['127.0.0.1'];
}

/**
 * Starts a discovery responder with its own instance id, sends a discovery request to loopback targets and
 * reports whether that responder's answer came back. Never rejects.
 */
export async function checkSelfDiscovery(options: SelfDiscoveryOptions): Promise<SelfDiscoveryReport> {
  const targets = [...options.targets];
  let responder: LanDiscoveryHandle;
  try {
    responder = await startLanDiscovery({
      name: 'LAN Party network check',
      gamePort: options.gamePort,
      getPlayerCount: () => 0,
      port: options.port,
      logger: silentLogger,
      ...(options.registry ? { registry: options.registry } : {}),
      ...(options.acceptSource ? { isAllowedSource: options.acceptSource } : {}),
      ...(options.networkInterfaces ? { networkInterfaces: options.networkInterfaces } : {}),
    });
  } catch (error) {
    return {
      status: 'failed',
      port: null,
      targets,
      sendFailures: [],
      message: `Could not listen for discovery requests on UDP port ${options.port}: ${(error as Error).message}`,
    };
  }
  const failures: SendFailure[] = [];
  try {
    const found = await discoverLanServers({
      port: responder.port,
      targets,
      timeoutMs: options.timeoutMs,
      attempts: 2,
      logger: silentLogger,
      onSendError: (failure) => failures.push(failure),
      ...(options.networkInterfaces ? { networkInterfaces: options.networkInterfaces } : {}),
      ...(options.platform ? { platform: options.platform } : {}),
    });
    const heard = found.some((server) => server.instanceId === responder.instanceId);
    const sendFailures = failures.map(({ target, code, message }) => ({ target, code, message }));
    return {
      status: heard ? 'heard' : 'not-heard',
      port: responder.port,
      targets,
      sendFailures,
      message: heard
        ? `This machine heard its own discovery request on UDP port ${responder.port} and answered it: discovery works here. Whether other computers hear it depends on the network and their firewalls.`
        : `No answer to this machine's own discovery request on UDP port ${responder.port} within ${options.timeoutMs} ms. ` +
          'A firewall or security tool on this machine may be dropping UDP, or another program sharing the port took the request.',
    };
  } catch (error) {
    return {
      status: 'failed',
      port: responder.port,
      targets,
      sendFailures: [],
      message: `Could not send a discovery request: ${(error as Error).message}`,
    };
  } finally {
    await responder.close();
  }
}
