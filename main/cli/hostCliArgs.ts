import { parseArgs } from 'node:util';
import { cleanDisplayText, DISCOVERY } from '../net/discovery';
import { parseIpv4 } from '../../shared/roomCode/ipv4';
import { LAN_PARTY_PORTS } from '../../shared/netcheck/ports';

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
}

/** What the command line asked for. */
export type HostCliCommand = { kind: 'help' } | { kind: 'run'; options: HostCliOptions };

const FLAGS = [
  ['name', '<text>', 'room name shown in server lists, 1–64 characters (default "LAN Party @ <computer name>")'],
  ['port', '<n>', `game UDP port (default ${LAN_PARTY_PORTS.GAME}; 0 = any free port)`],
  ['max-players', '<n>', `players who can join, 1–${MAX_GUESTS} (default 8); the host itself takes no seat`],
  ['password', '<text>', `password players must type (default none; ${PASSWORD_ENV} is read if absent)`],
  ['discovery-port', '<n>', `UDP port answering LAN searches (default ${DISCOVERY.DEFAULT_PORT}; 0 = any free port)`],
  ['bind', '<ipv4>', 'address the game port listens on (default 0.0.0.0 = every network)'],
  ['advertise', '<ipv4>', "address put in the room code (default this computer's first LAN address)"],
  ['log-file', '<path>', 'also write the log to this file (at 2 MB it becomes NAME.old.log and a new one starts)'],
] as const;

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
    `  ${pad('--no-discovery')}do not answer LAN searches (players join with the code or address)`,
    `  ${pad('--no-announce')}answer searches, but do not broadcast the room every 2 seconds`,
    `  ${pad('-h, --help')}show this help`,
    '',
    `Firewall: allow UDP ${DISCOVERY.DEFAULT_PORT} (discovery) and the game port in, e.g. sudo ufw allow ${DISCOVERY.DEFAULT_PORT}/udp.`,
    `The password is visible to other users in the process list; set ${PASSWORD_ENV} instead to hide it.`,
    'Exit codes: 0 closed normally, 1 could not open the room, 2 bad command line (or a --log-file that',
    'cannot be written).',
    '',
    `Example: lan-party-host --name "Friday LAN" --port ${LAN_PARTY_PORTS.GAME} --max-players 8`,
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
    };
    for (const [flag] of FLAGS) options[flag] = { type: 'string' };
    values = parseArgs({ args: [...argv], options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw new HostCliUsageError(error instanceof Error ? error.message : String(error));
  }
  if (values.help === true) return { kind: 'help' };
  const str = (flag: string) => values[flag] as string | undefined;

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
    },
  };
}
