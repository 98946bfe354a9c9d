import type { NetworkOptions } from '../base/networkOptions';

/** The dev:web flags that set network parameters, as parseArgs returns them. */
export interface DevWebNetworkFlags {
  readonly 'discovery-port'?: string;
  readonly 'game-port'?: string;
  readonly bind?: string;
  readonly advertise?: string;
  readonly targets?: string;
  readonly loopback?: boolean;
  readonly 'ice-host'?: string;
}

/** parseArgs option specs for {@link DevWebNetworkFlags}. */
export const DEV_WEB_NETWORK_FLAG_SPECS = {
  'discovery-port': { type: 'string' },
  'game-port': { type: 'string' },
  bind: { type: 'string' },
  advertise: { type: 'string' },
  targets: { type: 'string' },
  loopback: { type: 'boolean' },
  'ice-host': { type: 'string' },
} as const;

function addressList(flag: string, text: string): string[] {
  const list = text
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  if (list.length === 0) throw new Error(`--${flag} needs at least one address`);
  return list;
}

function port(flag: string, text: string | undefined, allowZero: boolean): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!/^\d{1,5}$/.test(text) || value > 65535 || (!allowZero && value === 0)) {
    throw new Error(`--${flag} must be a port ${allowZero ? '0' : '1'}-65535, got ${text}`);
  }
  return value;
}

/**
 * Network overrides from dev:web flags. `--loopback` keeps everything on this machine (bind and advertise
 * 127.0.0.1, search 127.255.255.255, no router port mapping, no DHT) so two dev backends can meet without touching the LAN. Throws on a bad flag.
 */
export function networkOptionsFromFlags(flags: DevWebNetworkFlags): Partial<NetworkOptions> {
  const out: { -readonly [K in keyof NetworkOptions]?: NetworkOptions[K] } = {};
  if (flags.loopback) {
    out.bindAddress = '127.0.0.1';
    out.advertiseAddress = '127.0.0.1';
    out.broadcastTargets = ['127.255.255.255'];
    out.selfTestTargets = ['127.255.255.255', '127.0.0.1'];
    // No router is asked to map a port either, and no DHT node is started.
    out.routerGateways = [];
    out.ssdpTargets = [];
    out.dhtBootstrap = [];
  }
  const discoveryPort = port('discovery-port', flags['discovery-port'], false);
  if (discoveryPort !== undefined) out.discoveryPort = discoveryPort;
  const gamePort = port('game-port', flags['game-port'], true);
  if (gamePort !== undefined) out.defaultGamePort = gamePort;
  if (flags.bind !== undefined) out.bindAddress = flags.bind;
  if (flags.advertise !== undefined) out.advertiseAddress = flags.advertise;
  if (flags.targets !== undefined) out.broadcastTargets = addressList('targets', flags.targets);
  // ICE skips interfaces named veth*, tun*…: a namespace or VPN names its own address here.
  if (flags['ice-host'] !== undefined) out.iceHostAddresses = addressList('ice-host', flags['ice-host']);
  return out;
}
