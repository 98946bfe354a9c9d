import { parseArgs } from 'node:util';
import { cleanDisplayText, DISCOVERY } from '../net/discovery';
import { parseIpv4 } from '../../shared/roomCode/ipv4';
import { LAN_PARTY_PORTS } from '../../shared/netcheck/ports';
import { dhtNodeSchema, MAX_DHT_BOOTSTRAP_NODES, rendezvousUrlSchema } from '../../shared/ipc/schemas/internetSettings';
import { SEAT_GRACE } from '../../shared/ipc/schemas/lobby';

/** A command-line mistake; the CLI prints the message and exits with code 2. */
export class HostCliUsageError extends Error {
  override name = 'HostCliUsageError';
}

/** Most guests a dedicated room takes: LobbyHost rooms hold 16 including the host's own seat. */
export const MAX_GUESTS = 15;

/** Environment variable read for the password when --password is absent (keeps it out of `ps`). */
export const PASSWORD_ENV = 'LAN_PARTY_PASSWORD';

/** What the dedicated host runs with, after defaults. */
export interface HostCliOptions {
  name: string;
  port: number;
  maxPlayers: number;
  password: string | undefined;
  /** null: discovery off. */
  discoveryPort: number | null;
  announce: boolean;
  bindAddress: string;
  /** undefined: this machine's first LAN address. */
  advertiseAddress: string | undefined;
  /** Where the log is written as well as stdout; undefined: stdout only. */
  logFile: string | undefined;
  /**
   * An internet room as well (`--reach internet`): the router's port mapping first (a direct room), then the
   * rendezvous it registers with when one is given (TURN credentials coming from it). Undefined: a LAN room only.
   */
  internet?: InternetRoomOptions;
  /** Seconds a guest that lost its link keeps its seat (--seat-grace); default SEAT_GRACE.DEFAULT. */
  seatGraceSec?: number;
}

/** What `--reach internet` asks of the room. */
export interface InternetRoomOptions {
  /** The rendezvous for when the router maps no port; undefined: the router's port mapping alone. */
  readonly rendezvousUrl: string | undefined;
  /** Where the port mapper asks (--router-gateway); undefined: the default gateway; []: off (--no-port-mapping). */
  readonly routerGateways?: readonly string[] | undefined;
  /**
   * The DHT's bootstrap nodes, "host:port" (--dht-bootstrap), where the room meets guests when the router maps no
   * port and no rendezvous is given; undefined: the public ones; []: the DHT off (--no-dht).
   */
  readonly dhtBootstrap?: readonly string[] | undefined;
}

/** Environment variable read for the TURN shared secret when --turn-secret is absent (keeps it out of `ps`). */
export const TURN_SECRET_ENV = 'LAN_PARTY_TURN_SECRET';

/** What the self-host rendezvous mode runs with. */
export interface RendezvousCliOptions {
  /** Listen address and TCP port of the rendezvous WebSocket. */
  host: string;
  port: number;
  /** turn: URLs handed to clients with minted credentials; empty: no TURN. */
  turnUrls: string[];
  /** coturn's --static-auth-secret; undefined exactly when turnUrls is empty. */
  turnSecret: string | undefined;
  logFile: string | undefined;
  /**
   * Where the service key lives (created when missing), so rooms keep their owners across restarts; undefined:
   * `rendezvous.key` in the rendezvous' data folder (serviceKey.ts).
   */
  serviceKeyFile: string | undefined;
  /** PEM certificate chain and key: serve wss:// itself. */
  tls: { certFile: string; keyFile: string } | undefined;
  /** Reverse proxies whose X-Forwarded-For is believed. */
  trustedProxies: string[];
}

/** What the command line asked for. */
export type HostCliCommand =
  { kind: 'help' } | { kind: 'run'; options: HostCliOptions } | { kind: 'rendezvous'; options: RendezvousCliOptions };

const FLAGS = [
  ['name', '<text>', 'room name shown in server lists, 1–64 characters (default "LAN Party @ <computer name>")'],
  ['port', '<n>', `game UDP port (default ${LAN_PARTY_PORTS.GAME}; 0 = any free port)`],
  ['max-players', '<n>', `players who can join, 1–${MAX_GUESTS} (default 8); the host itself takes no seat`],
  ['password', '<text>', `password players must type (default none; ${PASSWORD_ENV} is read if absent)`],
  ['discovery-port', '<n>', `UDP port answering LAN searches (default ${DISCOVERY.DEFAULT_PORT}; 0 = any free port)`],
  ['bind', '<ipv4>', 'address the game port listens on (default 0.0.0.0 = every network)'],
  ['advertise', '<ipv4>', "address put in the room code (default this computer's first LAN address)"],
  ['log-file', '<path>', 'also write the log to this file (at 2 MB it becomes NAME.old.log and a new one starts)'],
  [
    'seat-grace',
    '<s>',
    `seconds a player who lost the connection keeps its seat, 0–${SEAT_GRACE.MAX} (default ${SEAT_GRACE.DEFAULT})`,
  ],
  [
    'reach',
    '<lan|internet>',
    "internet: also open the room to friends over the internet, through the router's port mapping (UPnP, NAT-PMP, PCP)",
  ],
  [
    'rendezvous',
    '<url>',
    'with --reach internet: the rendezvous to use when the router maps no port, wss://… (ws:// on loopback or a lab LAN only)',
  ],
  [
    'router-gateway',
    '<ipv4>',
    "with --reach internet: the router to ask for the port mapping (default the system's default gateway)",
  ],
  [
    'dht-bootstrap',
    '<host:port,…>',
    'with --reach internet: the DHT bootstrap nodes to use instead of the public ones (where the room meets guests when the router maps no port and no --rendezvous is given)',
  ],
  [
    'turn-url',
    '<url>',
    'with --rendezvous <ipv4:port>: TURN server(s) players get, comma-separated, e.g. turn:203.0.113.5:3478',
  ],
  ['turn-secret', '<text>', `with --turn-url: coturn's --static-auth-secret (${TURN_SECRET_ENV} is read if absent)`],
  [
    'service-key-file',
    '<path>',
    'with --rendezvous: the key room secrets derive from (created if missing; keep it); default rendezvous.key in ~/.local/share/lan-party (%APPDATA%\\lan-party on Windows)',
  ],
  ['tls-cert', '<path>', 'with --rendezvous and --tls-key: PEM certificate chain, to serve wss:// itself'],
  ['tls-key', '<path>', 'with --tls-cert: its PEM private key'],
  ['trust-proxy', '<ipv4,…>', 'with --rendezvous: reverse proxies whose X-Forwarded-For names the client'],
] as const;

/**
 * Flags of a room that mean nothing to the rendezvous mode. `--bind` (the same address as --rendezvous) and
 * `--no-discovery` (it never searches or answers searches) are taken there, so a script can name its network in full.
 */
const ROOM_FLAGS = [
  'name',
  'port',
  'max-players',
  'password',
  'discovery-port',
  'advertise',
  'no-announce',
  'seat-grace',
  'reach',
  'router-gateway',
  'no-port-mapping',
  'dht-bootstrap',
  'no-dht',
];

/** The --help text: every flag, its argument and default. */
export function hostCliHelp(): string {
  const pad = (s: string) => s.padEnd(26);
  return [
    'Usage: lan-party-host [options]',
    '',
    'Runs a LAN Party room without a window, e.g. on a spare PC or a server: prints the room code and the',
    'addresses players can join, answers LAN searches, logs joins, leaves and chat, and starts a round when',
    'every player is ready. Ctrl-C tells the players the room is closing and exits.',
    '',
    'A dedicated host does not play, so it takes no seat: --max-players 4 lets four players in, and the',
    'banner, the log ("2/4 players") and LAN server lists ("2/4") all count those players only.',
    '',
    'Options:',
    ...FLAGS.map(([flag, arg, text]) => `  ${pad(`--${flag} ${arg}`)}${text}`),
    `  ${pad('--rendezvous <ipv4:port>')}alone: run the rendezvous service instead of a room, e.g. 0.0.0.0:8787`,
    `  ${pad('--no-discovery')}do not answer LAN searches (players join with the code or address)`,
    `  ${pad('--no-announce')}answer searches, but do not broadcast the room every 2 seconds`,
    `  ${pad('--no-port-mapping')}with --reach internet: do not ask the router to open a port`,
    `  ${pad('--no-dht')}with --reach internet: do not meet guests on the DHT (the router's port or the rendezvous only)`,
    `  ${pad('-h, --help')}show this help`,
    '',
    `Firewall: allow UDP ${DISCOVERY.DEFAULT_PORT} (discovery) and the game port in, e.g. sudo ufw allow ${DISCOVERY.DEFAULT_PORT}/udp.`,
    `The password is visible to other users in the process list; set ${PASSWORD_ENV} instead to hide it.`,
    'Exit codes: 0 closed normally, 1 could not open the room, 2 bad command line (or a --log-file that',
    'cannot be written).',
    '',
    `Example: lan-party-host --name "Friday LAN" --port ${LAN_PARTY_PORTS.GAME} --max-players 8`,
    '',
    'An always-on internet room (prints its NET- code): the router maps its port when it can, else the rendezvous',
    'given is used (the room registers again by itself when the rendezvous restarts):',
    '  lan-party-host --name "Friday LAN" --reach internet --rendezvous wss://rdv.example.org/rendezvous/v1',
    'Without --rendezvous the code (NET-D…) leads straight to the port the router opened; when the router opens',
    'none, the room listens on the public HyperDHT under a fresh key (NET-K…: guests punch through both NATs,',
    'no relay; only the room key goes to the DHT); with --no-dht too, the log says why and the LAN room stays. The mapping is removed on Ctrl-C, and one a crash left is',
    'removed at the next start (port-mappings.json in ~/.local/share/lan-party, %APPDATA%\\lan-party on Windows).',
    '',
    'Self-host internet rooms (next to coturn started with --use-auth-secret --static-auth-secret S):',
    `  ${TURN_SECRET_ENV}=S lan-party-host --rendezvous 0.0.0.0:8787 --turn-url turn:203.0.113.5:3478`,
    '  With --tls-cert/--tls-key (or behind a TLS proxy) players set wss://<its name>:8787/rendezvous/v1 in',
    '  Settings (allow TCP 8787 in; ws:// only on a private lab network). Its key in the data folder keeps rooms.',
  ].join('\n');
}

function toInteger(flag: string, text: string, min: number, max: number): number {
  const value = /^\d+$/.test(text.trim()) ? Number(text.trim()) : NaN;
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new HostCliUsageError(
      `--${flag}: expected a whole number from ${min} to ${max}, got ${JSON.stringify(text)}`,
    );
  }
  return value;
}

function toIpv4(flag: string, text: string): string {
  if (parseIpv4(text) === undefined) {
    throw new HostCliUsageError(`--${flag}: expected an IPv4 address like 192.168.1.20, got ${JSON.stringify(text)}`);
  }
  return text;
}

/** Parses the arguments (without node and script); throws HostCliUsageError on any mistake. Pure. */
export function parseHostCliArgs(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  computerName: string,
): HostCliCommand {
  let values: Record<string, string | boolean | undefined>;
  try {
    const options: Record<string, { type: 'string' | 'boolean'; short?: string }> = {
      help: { type: 'boolean', short: 'h' },
      'no-discovery': { type: 'boolean' },
      'no-announce': { type: 'boolean' },
      'no-port-mapping': { type: 'boolean' },
      'no-dht': { type: 'boolean' },
    };
    for (const [flag] of FLAGS) options[flag] = { type: 'string' };
    values = parseArgs({ args: [...argv], options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw new HostCliUsageError(error instanceof Error ? error.message : String(error));
  }
  if (values.help === true) return { kind: 'help' };
  const str = (flag: string) => values[flag] as string | undefined;
  const room = internetRoom(str('reach'), str('rendezvous'));
  if (str('rendezvous') !== undefined && room === undefined) {
    return { kind: 'rendezvous', options: rendezvousOptions(values, env) };
  }
  const internet = room && { ...room, routerGateways: routerGateways(values), dhtBootstrap: dhtBootstrap(values) };
  if (!internet && (values['no-port-mapping'] !== undefined || str('router-gateway') !== undefined)) {
    const flag = values['no-port-mapping'] !== undefined ? 'no-port-mapping' : 'router-gateway';
    throw new HostCliUsageError(`--${flag} only goes with --reach internet (a LAN room maps no port)`);
  }
  if (!internet && (values['no-dht'] !== undefined || str('dht-bootstrap') !== undefined)) {
    const flag = values['no-dht'] !== undefined ? 'no-dht' : 'dht-bootstrap';
    throw new HostCliUsageError(`--${flag} only goes with --reach internet (a LAN room uses no DHT)`);
  }
  if (internet?.routerGateways?.length === 0 && internet.dhtBootstrap?.length === 0 && !internet.rendezvousUrl) {
    throw new HostCliUsageError(
      '--no-port-mapping with --no-dht needs --rendezvous <url>: nothing else opens an internet room',
    );
  }
  for (const flag of ['turn-url', 'turn-secret', 'service-key-file', 'tls-cert', 'tls-key', 'trust-proxy']) {
    if (str(flag) === undefined) continue;
    throw new HostCliUsageError(
      internet && (flag === 'turn-url' || flag === 'turn-secret')
        ? `--${flag} does not apply to a room: it gets TURN credentials from its rendezvous`
        : internet
          ? `--${flag} does not apply to a room: it is the rendezvous service's`
          : `--${flag} only goes with --rendezvous`,
    );
  }

  const givenName = str('name');
  // A given name must fit; the default is cut to fit (computer names can be long).
  const name = cleanDisplayText(
    givenName ?? `LAN Party @ ${computerName}`,
    givenName ? Infinity : DISCOVERY.MAX_NAME_CHARS,
  );
  if (name === '') throw new HostCliUsageError('--name: the room name is empty');
  if (Array.from(name).length > DISCOVERY.MAX_NAME_CHARS) {
    throw new HostCliUsageError(
      `--name: at most ${DISCOVERY.MAX_NAME_CHARS} characters, got ${Array.from(name).length}`,
    );
  }
  const password = str('password') ?? (env[PASSWORD_ENV] || undefined);
  if (password !== undefined && (password.length === 0 || password.length > 128)) {
    throw new HostCliUsageError('--password: 1 to 128 characters');
  }
  const noDiscovery = values['no-discovery'] === true;
  if (noDiscovery && str('discovery-port') !== undefined) {
    throw new HostCliUsageError('--discovery-port and --no-discovery contradict each other');
  }
  const port = toInteger('port', str('port') ?? String(LAN_PARTY_PORTS.GAME), 0, 65535);
  const discoveryPort = noDiscovery
    ? null
    : toInteger('discovery-port', str('discovery-port') ?? String(DISCOVERY.DEFAULT_PORT), 0, 65535);
  if (discoveryPort !== null && discoveryPort !== 0 && discoveryPort === port) {
    throw new HostCliUsageError(`--port and --discovery-port must differ (both ${port})`);
  }
  const logFile = str('log-file');
  if (logFile !== undefined && logFile.trim() === '') throw new HostCliUsageError('--log-file: the path is empty');
  const advertise = str('advertise');
  if (advertise !== undefined && (toIpv4('advertise', advertise) === '0.0.0.0' || advertise.startsWith('255.'))) {
    throw new HostCliUsageError(`--advertise: ${advertise} cannot be joined; give this computer's LAN address`);
  }
  return {
    kind: 'run',
    options: {
      name,
      port,
      maxPlayers: toInteger('max-players', str('max-players') ?? '8', 1, MAX_GUESTS),
      password,
      discoveryPort,
      announce: !noDiscovery && values['no-announce'] !== true,
      bindAddress: toIpv4('bind', str('bind') ?? '0.0.0.0'),
      advertiseAddress: advertise,
      logFile,
      seatGraceSec: toInteger('seat-grace', str('seat-grace') ?? String(SEAT_GRACE.DEFAULT), 0, SEAT_GRACE.MAX),
      ...(internet ? { internet } : {}),
    },
  };
}

/**
 * What --reach and --rendezvous ask of a room: undefined for a LAN room (or, with --rendezvous ipv4:port alone, the
 * rendezvous service), for an internet room the rendezvous URL when one was given.
 */
function internetRoom(
  reach: string | undefined,
  rendezvous: string | undefined,
): { rendezvousUrl: string | undefined } | undefined {
  if (reach !== undefined && reach !== 'lan' && reach !== 'internet') {
    throw new HostCliUsageError(`--reach: expected lan or internet, got ${JSON.stringify(reach)}`);
  }
  const url = rendezvous !== undefined && /^[a-z]+:\/\//i.test(rendezvous.trim());
  if (reach !== 'internet') {
    if (url) {
      throw new HostCliUsageError(
        `--rendezvous ${rendezvous}: a rendezvous to register with goes with --reach internet ` +
          '(to run the rendezvous service, give the address to listen on, like 0.0.0.0:8787)',
      );
    }
    if (reach === 'lan' && rendezvous !== undefined) {
      throw new HostCliUsageError('--reach does not apply: --rendezvous <ipv4:port> runs only the rendezvous service');
    }
    return undefined;
  }
  // No rendezvous: the router's port mapping alone (the room says so in words when it cannot map).
  if (rendezvous === undefined) return { rendezvousUrl: undefined };
  const parsed = rendezvousUrlSchema.safeParse(rendezvous);
  if (!parsed.success) {
    throw new HostCliUsageError(
      `--rendezvous: ${parsed.error.issues[0]?.message ?? 'not a rendezvous address'}, got ${JSON.stringify(rendezvous)}`,
    );
  }
  return { rendezvousUrl: parsed.data };
}

/** --router-gateway and --no-port-mapping: where the port mapper asks, [] when it is off. */
function routerGateways(values: Record<string, string | boolean | undefined>): readonly string[] | undefined {
  const gateway = values['router-gateway'] as string | undefined;
  if (values['no-port-mapping'] === true) {
    if (gateway !== undefined)
      throw new HostCliUsageError('--router-gateway and --no-port-mapping contradict each other');
    return [];
  }
  return gateway === undefined ? undefined : [toIpv4('router-gateway', gateway)];
}

/** --dht-bootstrap and --no-dht: the DHT's bootstrap nodes, [] when it is off, undefined for the public ones. */
function dhtBootstrap(values: Record<string, string | boolean | undefined>): readonly string[] | undefined {
  const list = values['dht-bootstrap'] as string | undefined;
  if (values['no-dht'] === true) {
    if (list !== undefined) throw new HostCliUsageError('--dht-bootstrap and --no-dht contradict each other');
    return [];
  }
  if (list === undefined) return undefined;
  const nodes = list.split(',').map((node) => node.trim());
  if (nodes.length > MAX_DHT_BOOTSTRAP_NODES) {
    throw new HostCliUsageError(`--dht-bootstrap: at most ${MAX_DHT_BOOTSTRAP_NODES} nodes, got ${nodes.length}`);
  }
  for (const node of nodes) {
    const parsed = dhtNodeSchema.safeParse(node);
    if (!parsed.success) {
      throw new HostCliUsageError(
        `--dht-bootstrap: ${parsed.error.issues[0]?.message ?? 'not host:port'}, got ${JSON.stringify(node)}`,
      );
    }
  }
  return nodes;
}

function toListenAddress(text: string): { host: string; port: number } {
  const match = /^([0-9.]+):(\d{1,5})$/.exec(text.trim());
  if (!match?.[1] || !match[2] || parseIpv4(match[1]) === undefined) {
    throw new HostCliUsageError(`--rendezvous: expected ipv4:port like 0.0.0.0:8787, got ${JSON.stringify(text)}`);
  }
  return { host: match[1], port: toInteger('rendezvous', match[2], 0, 65535) };
}

function rendezvousOptions(
  values: Record<string, string | boolean | undefined>,
  env: Readonly<Record<string, string | undefined>>,
): RendezvousCliOptions {
  for (const flag of ROOM_FLAGS) {
    if (values[flag] !== undefined) {
      throw new HostCliUsageError(`--${flag} does not apply: --rendezvous runs only the rendezvous service, no room`);
    }
  }
  const { host, port } = toListenAddress(values.rendezvous as string);
  const bind = values.bind as string | undefined;
  if (bind !== undefined && toIpv4('bind', bind) !== host) {
    throw new HostCliUsageError(`--bind ${bind} and --rendezvous ${host}:${port} name different addresses`);
  }
  const urlText = values['turn-url'] as string | undefined;
  const turnUrls = (urlText ?? '')
    .split(',')
    .map((url) => url.trim())
    .filter((url) => url !== '');
  for (const url of turnUrls) {
    if (!/^turns?:[\x21-\x7e]{1,200}$/.test(url)) {
      throw new HostCliUsageError(`--turn-url: expected turn:host:port, got ${JSON.stringify(url)}`);
    }
  }
  if (turnUrls.length > 4) throw new HostCliUsageError('--turn-url: at most 4 URLs');
  const turnSecret = (values['turn-secret'] as string | undefined) ?? (env[TURN_SECRET_ENV] || undefined);
  if (turnUrls.length > 0 && turnSecret === undefined) {
    throw new HostCliUsageError(`--turn-url needs the TURN shared secret: --turn-secret or ${TURN_SECRET_ENV}`);
  }
  if (turnUrls.length === 0 && values['turn-secret'] !== undefined) {
    throw new HostCliUsageError('--turn-secret needs --turn-url (where players find that TURN server)');
  }
  const logFile = values['log-file'] as string | undefined;
  if (logFile !== undefined && logFile.trim() === '') throw new HostCliUsageError('--log-file: the path is empty');
  const [certFile, keyFile] = [values['tls-cert'], values['tls-key']] as (string | undefined)[];
  if ((certFile === undefined) !== (keyFile === undefined)) {
    throw new HostCliUsageError('--tls-cert and --tls-key go together');
  }
  const trustedProxies = ((values['trust-proxy'] as string | undefined) ?? '')
    .split(',')
    .map((address) => address.trim())
    .filter((address) => address !== '')
    .map((address) => toIpv4('trust-proxy', address));
  return {
    host,
    port,
    turnUrls,
    turnSecret: turnUrls.length > 0 ? turnSecret : undefined,
    logFile,
    serviceKeyFile: values['service-key-file'] as string | undefined,
    tls: certFile !== undefined && keyFile !== undefined ? { certFile, keyFile } : undefined,
    trustedProxies,
  };
}
