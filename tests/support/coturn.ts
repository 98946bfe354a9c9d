import { spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Why coturn cannot run here, or undefined when it can. */
export function coturnUnavailableReason(): string | undefined {
  if (spawnSync('turnserver', ['--version']).error) return 'coturn (`turnserver`) is not installed';
  if (spawnSync('turnutils_stunclient', ['-h']).error) return 'coturn’s `turnutils_stunclient` is not installed';
  return undefined;
}

/**
 * Peer addresses a relay must never reach (coturn `--denied-peer-ip` ranges): unspecified, loopback, private,
 * CGNAT, link-local, IETF-reserved, multicast and broadcast for IPv4; loopback, unique-local and link-local for
 * IPv6. Otherwise a stranger with TURN credentials could reach the relay host's own services or its LAN. The
 * IPv6 unspecified address and the IPv4-mapped block cannot be listed: coturn 4.6.1 then refuses every IPv4
 * peer (a range starting at `::` matches them all; turnPeerDenial's public control caught it). A relay with an
 * IPv4 relay address reaches no IPv6 peer at all. The README's coturn command lists the same ranges (a test
 * holds them equal).
 */
export const DENIED_PEER_RANGES: readonly string[] = [
  '0.0.0.0-0.255.255.255',
  '10.0.0.0-10.255.255.255',
  '100.64.0.0-100.127.255.255',
  '127.0.0.0-127.255.255.255',
  '169.254.0.0-169.254.255.255',
  '172.16.0.0-172.31.255.255',
  '192.0.0.0-192.0.0.255',
  '192.168.0.0-192.168.255.255',
  '198.18.0.0-198.19.255.255',
  '224.0.0.0-255.255.255.255',
  '::1-::1',
  'fc00::-fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff',
  'fe80::-febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff',
];

/** coturn arguments that keep a relay to public UDP peers only: every denied range, and no TCP relaying. */
export function relayPolicyArgs(): string[] {
  return [
    ...DENIED_PEER_RANGES.flatMap((range) => ['--denied-peer-ip', range]),
    '--no-tcp-relay',
    '--no-multicast-peers',
  ];
}

/** A coturn running inside a namespace until {@link Coturn.stop}. */
export interface Coturn {
  readonly host: string;
  readonly port: number;
  /** The `--static-auth-secret` (mint credentials with mintTurnCredentials). */
  readonly secret: string;
  /** coturn's own log so far (it appends the date to the name it is given). */
  log(): string;
  /** Stops coturn and removes its temp dir; safe to call twice. */
  stop(): Promise<void>;
}

/** How to run a command inside the namespace coturn lives in. */
export type SpawnIn = (command: string, args: readonly string[]) => ChildProcess;
export type RunIn = (command: string, args: readonly string[]) => { status: number | null; stdout: string };

/**
 * Starts `turnserver` on `host` (inside a namespace: `spawnIn`/`runIn` wrap `ip netns exec`) with the REST API
 * shared-secret scheme, {@link relayPolicyArgs} (which also keeps a relay to a private host candidate from
 * failing the whole allocation), and its db, log and pid file in a temp dir; resolves once it answers STUN.
 */
export async function startCoturn(options: {
  host: string;
  port?: number;
  spawnIn: SpawnIn;
  runIn: RunIn;
}): Promise<Coturn> {
  const port = options.port ?? 3478;
  const secret = randomBytes(16).toString('hex');
  const dir = mkdtempSync(join(tmpdir(), 'lp-coturn-'));
  const child = options.spawnIn('turnserver', [
    '-n',
    '--listening-ip',
    options.host,
    '--relay-ip',
    options.host,
    '--listening-port',
    String(port),
    '--min-port',
    '49152',
    '--max-port',
    '65535',
    ...relayPolicyArgs(),
    '--use-auth-secret',
    '--static-auth-secret',
    secret,
    '--realm',
    'lan.test',
    '--no-tls',
    '--no-dtls',
    '--no-cli',
    '--userdb',
    join(dir, 'turndb'),
    '--log-file',
    join(dir, 'turn.log'),
    '--pidfile',
    join(dir, 'turn.pid'),
  ]);
  let exited: string | undefined;
  child.on('exit', (code, signal) => (exited = `turnserver exited (${signal ?? code})`));
  child.on('error', (error) => (exited = `turnserver did not start: ${error.message}`));
  const log = () =>
    readdirSync(dir)
      .filter((name) => name.startsWith('turn') && name.endsWith('.log'))
      .map((name) => readFileSync(join(dir, name), 'utf8'))
      .join('\n');
  let stopped: Promise<void> | undefined;
  const stop = () =>
    (stopped ??= (async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
        child.kill('SIGTERM');
        const late = setTimeout(() => child.kill('SIGKILL'), 2_000);
        await gone;
        clearTimeout(late);
      }
      rmSync(dir, { recursive: true, force: true });
    })());
  // Ready when a STUN binding answers (the client hangs when nothing does: bound by `timeout`).
  const deadline = Date.now() + 10_000;
  for (;;) {
    const probe = options.runIn('timeout', ['1', 'turnutils_stunclient', '-p', String(port), options.host]);
    if (probe.status === 0 && /reflexive addr/i.test(probe.stdout)) break;
    if (exited || Date.now() > deadline) {
      const why = exited ?? 'turnserver did not answer STUN within 10 s';
      const tail = log().slice(-800);
      await stop();
      throw new Error(`${why}\n${tail}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { host: options.host, port, secret, log, stop };
}
