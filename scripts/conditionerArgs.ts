import { parseArgs } from 'node:util';
import type { LinkConditionerOptions } from '../main/conditioner/conditionerOptions';
import type { ConditionerStats } from '../main/conditioner/conditioner';
import type { DirectionStats } from '../main/conditioner/relay/linkPipe';
import { DEFAULT_LINK_PROFILE, linkProfileIssues, type LinkProfile } from '../main/conditioner/linkProfile';
import { isLoopbackAddress, parseHostLiteral } from '../main/conditioner/relay/loopback';

/** A command-line mistake; the CLI prints the message and exits with code 2. */
export class ConditionerUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConditionerUsageError';
  }
}

/** What the command line asked for. */
export type ConditionerCommand =
  { kind: 'help' } | { kind: 'run'; options: LinkConditionerOptions; statsIntervalMs: number };

/** Impairment flags (both directions; `--up-*` / `--down-*` for one) and the profile field each sets. */
export const IMPAIRMENT_FLAGS = [
  ['loss', 'loss', 'independent loss probability, 0..1'],
  ['burst-enter', 'burstEnter', 'Gilbert–Elliott P(good→bad) per datagram, 0..1 (0 = no bursts)'],
  ['burst-exit', 'burstExit', 'Gilbert–Elliott P(bad→good) per datagram, (0..1]; mean burst = 1/this'],
  ['burst-loss', 'burstLoss', 'loss probability inside a burst, 0..1'],
  ['latency', 'latencyMs', 'one-way delay, ms'],
  ['jitter', 'jitterMs', 'delay varies ± this many ms (order is kept)'],
  ['duplicate', 'duplicate', 'duplication probability, 0..1'],
  ['reorder', 'reorder', 'probability a datagram is held back so later ones overtake it, 0..1'],
  ['reorder-delay', 'reorderDelayMs', 'how long a reordered datagram is held back, ms'],
  ['bandwidth', 'bandwidthKbps', 'bandwidth cap on payload bytes, kbit/s (0 = unlimited)'],
  ['max-backlog', 'maxBacklogMs', 'with a cap: queueing delay beyond which datagrams are dropped, ms'],
] as const satisfies readonly (readonly [string, keyof LinkProfile, string])[];

const GENERAL_FLAGS = [
  ['target', '<host:port>', 'server to relay to (required); loopback only unless --allow-non-loopback'],
  ['listen', '<[host:]port>', 'where clients send (default 127.0.0.1:0 = pick a free port)'],
  ['seed', '<int>', 'seed for every random decision, so runs repeat (default 1)'],
  ['stats-interval', '<ms>', 'print counters every this many ms (default 0 = only on exit)'],
  ['max-mappings', '<n>', 'most distinct clients at once (default 64)'],
  ['idle-timeout', '<ms>', 'close a client mapping idle this long (default 30000)'],
] as const;

/** The --help text: every flag, its unit and default. */
export function conditionerHelp(): string {
  const pad = (s: string) => s.padEnd(34);
  const lines = [
    'Usage: conditioner --target <host:port> [options]',
    '',
    'A UDP relay that simulates a bad network between clients and one server: clients send to the',
    'listen port, the relay forwards to --target, and replies come back the same way. Each client',
    'source gets its own port towards the server (like a NAT). Ctrl-C stops it and prints the counters.',
    '',
    'General:',
    ...GENERAL_FLAGS.map(([flag, arg, text]) => `  ${pad(`--${flag} ${arg}`)}${text}`),
    `  ${pad('--allow-non-loopback')}permit a target or listen address off this machine`,
    `  ${pad('-h, --help')}show this help`,
    '',
    'Impairments (apply to both directions; prefix with up- for client→server or down- for',
    'server→client only, e.g. --up-loss 0.2 --down-latency 80). Defaults: the link is perfect.',
    ...IMPAIRMENT_FLAGS.map(
      ([flag, field, text]) => `  ${pad(`--${flag} <n>`)}${text} (default ${DEFAULT_LINK_PROFILE[field]})`,
    ),
    '',
    'Example: conditioner --target 127.0.0.1:9000 --listen 9100 --loss 0.1 --latency 40 --jitter 20',
  ];
  return lines.join('\n');
}

function optionSpec(): Record<string, { type: 'string' | 'boolean'; short?: string }> {
  const spec: Record<string, { type: 'string' | 'boolean'; short?: string }> = {
    help: { type: 'boolean', short: 'h' },
    'allow-non-loopback': { type: 'boolean' },
  };
  for (const [flag] of GENERAL_FLAGS) spec[flag] = { type: 'string' };
  for (const [flag] of IMPAIRMENT_FLAGS) {
    for (const prefix of ['', 'up-', 'down-']) spec[prefix + flag] = { type: 'string' };
  }
  return spec;
}

function toNumber(flag: string, text: string): number {
  const value = text.trim() === '' ? NaN : Number(text);
  if (!Number.isFinite(value))
    throw new ConditionerUsageError(`--${flag}: expected a number, got ${JSON.stringify(text)}`);
  return value;
}

function toInteger(flag: string, text: string, min: number, max: number): number {
  const value = toNumber(flag, text);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConditionerUsageError(`--${flag}: expected an integer from ${min} to ${max}, got ${text}`);
  }
  return value;
}

function splitHostPort(flag: string, text: string, hostRequired: boolean): { host: string | undefined; port: string } {
  const shape = hostRequired ? '<host:port>' : '<[host:]port>';
  const bad = () => new ConditionerUsageError(`--${flag}: expected ${shape}, got ${JSON.stringify(text)}`);
  if (/^\d+$/.test(text)) {
    if (hostRequired) throw bad();
    return { host: undefined, port: text };
  }
  const bracketed = /^\[([^\]]+)\]:(\d+)$/.exec(text);
  if (bracketed !== null) return { host: bracketed[1], port: bracketed[2] as string };
  const colon = text.lastIndexOf(':');
  const host = text.slice(0, colon);
  const port = text.slice(colon + 1);
  if (colon <= 0 || !/^\d+$/.test(port)) throw bad();
  if (host.includes(':')) {
    throw new ConditionerUsageError(`--${flag}: put an IPv6 address in brackets, e.g. [::1]:9000 (got ${text})`);
  }
  return { host, port };
}

/** Parses the CLI arguments (without node and script) into options; throws ConditionerUsageError on any mistake. */
export function parseConditionerArgs(argv: readonly string[]): ConditionerCommand {
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({ args: [...argv], options: optionSpec(), strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw new ConditionerUsageError(error instanceof Error ? error.message : String(error));
  }
  if (values.help === true) return { kind: 'help' };
  const str = (flag: string): string | undefined => values[flag] as string | undefined;

  const targetText = str('target');
  if (targetText === undefined) throw new ConditionerUsageError('--target <host:port> is required');
  const target = splitHostPort('target', targetText, true);
  const listen = splitHostPort('listen', str('listen') ?? '0', false);
  const allowNonLoopback = values['allow-non-loopback'] === true;
  const hosts = { target: target.host as string, listen: listen.host ?? '127.0.0.1' };
  for (const [flag, host] of Object.entries(hosts)) {
    let literal;
    try {
      literal = parseHostLiteral(host, `--${flag} host`);
    } catch (error) {
      throw new ConditionerUsageError((error as Error).message);
    }
    if (!allowNonLoopback && !isLoopbackAddress(literal)) {
      throw new ConditionerUsageError(
        `--${flag}: ${host} is not a loopback address; add --allow-non-loopback to relay beyond this machine`,
      );
    }
  }

  const upstream: Partial<LinkProfile> = {};
  const downstream: Partial<LinkProfile> = {};
  for (const [flag, field] of IMPAIRMENT_FLAGS) {
    // Shared flag first, so a direction-specific one overrides it whatever the order on the command line.
    for (const [prefix, targets] of [
      ['', [upstream, downstream]],
      ['up-', [upstream]],
      ['down-', [downstream]],
    ] as const) {
      const text = str(prefix + flag);
      if (text === undefined) continue;
      const value = toNumber(prefix + flag, text);
      const issue = linkProfileIssues({ [field]: value })[0];
      if (issue !== undefined) throw new ConditionerUsageError(`--${prefix}${flag}: ${issue.message}`);
      for (const profile of targets) profile[field] = value;
    }
  }

  const options: LinkConditionerOptions = {
    listenHost: hosts.listen,
    listenPort: toInteger('listen', listen.port, 0, 65535),
    target: { host: hosts.target, port: toInteger('target', target.port, 1, 65535) },
    upstream,
    downstream,
    seed: toInteger('seed', str('seed') ?? '1', 0, 0xffffffff),
    allowNonLoopback,
  };
  const maxMappings = str('max-mappings');
  if (maxMappings !== undefined) options.maxMappings = toInteger('max-mappings', maxMappings, 1, 65535);
  const idle = str('idle-timeout');
  if (idle !== undefined) options.idleTimeoutMs = toInteger('idle-timeout', idle, 1, 86_400_000);
  const statsIntervalMs = toInteger('stats-interval', str('stats-interval') ?? '0', 0, 86_400_000);
  return { kind: 'run', options, statsIntervalMs };
}

function direction(name: string, s: DirectionStats): string {
  const reasons = Object.entries(s.drops)
    .filter(([, n]) => n > 0)
    .map(([reason, n]) => `${reason} ${n}`)
    .join(', ');
  const drops = reasons === '' ? `${s.dropped}` : `${s.dropped} (${reasons})`;
  return (
    `${name}: received ${s.received} (${s.receivedBytes} B), forwarded ${s.forwarded} (${s.forwardedBytes} B), ` +
    `dropped ${drops}, duplicated ${s.duplicated}, reordered ${s.reordered}, queued ${s.queued}`
  );
}

/** One human-readable line per direction plus a line for the relay itself. */
export function formatConditionerStats(stats: ConditionerStats): string {
  return [
    direction('upstream  ', stats.upstream),
    direction('downstream', stats.downstream),
    `clients: ${stats.mappings}, strays: ${stats.strays}, socket errors: ${stats.errors}`,
  ].join('\n');
}
