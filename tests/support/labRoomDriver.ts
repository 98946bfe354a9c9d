import { createInterface } from 'node:readline';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { lineMatching } from './lineMatching';
import type { NatLab } from './natLab';
import type { LobbyView } from '../../shared/ipc/schemas/lobby';
import type { LobbyHostStats } from '../../main/lobby/host/lobbyHostLimits';
import { scriptArgs } from './scriptArgs';

/**
 * A player's network options in the NAT lab, all explicit: bind and advertise its own namespace address,
 * discovery only to loopback, the ICE agent told that address. Never the app's defaults.
 */
export function labNetwork(ownAddress: string) {
  return {
    ownAddress,
    discoveryPort: 0,
    bindAddress: ownAddress,
    discoveryBindAddress: ownAddress,
    advertiseAddress: ownAddress,
    broadcastTargets: ['127.255.255.255'],
    selfTestTargets: ['127.255.255.255'],
    announceIntervalMs: 500,
    browseIntervalMs: 500,
    defaultGamePort: 0,
    joinTimeoutSec: 10,
    // No router port mapping unless a test asks for it (a lab router that maps nothing would only add its 2 s).
    routerGateways: [] as string[],
    ssdpTargets: [] as string[],
    // No DHT unless a test gives its private one: nothing may reach the public bootstrap nodes.
    dhtBootstrap: [] as string[],
  };
}

/** In the round: 30 inputs the host accepts, then more than 10 snapshots from it. */
export async function playInRound(guest: RoomPeer): Promise<void> {
  await guest.until((v) => v.state?.phase === 'playing', 'the round at the guest', 30_000);
  let accepted = false;
  for (let sequence = 1; sequence <= 30; sequence += 1) {
    const input = { sequence, moveX: 1, moveY: 0, tag: false };
    accepted = (await guest.call<{ accepted: boolean }>('game.input', { inputs: [input], interpolationDelay: 0.1 }))
      .accepted;
  }
  expect(accepted).toBe(true);
  const before = guest.snapshots;
  const deadline = Date.now() + 30_000;
  while (guest.snapshots <= before + 10) {
    if (Date.now() > deadline) throw new Error(`${guest.snapshots - before} snapshots in 30 s`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

type CallResult = { ok: boolean; value?: unknown; error?: { message: string } };

/** One line of the backend's log (LAB_ROOM_LOGS), with the wall-clock time it was written. */
export interface LabLogLine {
  readonly level: string;
  readonly line: string;
  readonly at: number;
}

/**
 * A whole backend in a lab player's namespace (tests/support/labRoomPeer.ts), called over its stdio: its lobby
 * views, its game snapshots and (with `logs`) its log lines as they come.
 */
export class RoomPeer {
  readonly views: LobbyView[] = [];
  readonly logs: LabLogLine[] = [];
  snapshots = 0;
  /** The latest game snapshot (the game's own shape). */
  lastSnapshot: unknown;
  private nextId = 1;
  private readonly waiting = new Map<number, (result: CallResult) => void>();
  private stderr = '';

  private constructor(readonly child: ChildProcess) {
    child.stderr?.on('data', (chunk: Buffer) => (this.stderr = (this.stderr + chunk.toString()).slice(-4000)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const event = JSON.parse(line) as {
        ev: string;
        id?: number;
        result?: never;
        name?: string;
        payload?: { snapshot?: unknown };
      } & Partial<LabLogLine>;
      if (event.ev === 'result') this.waiting.get(event.id!)?.(event.result!);
      if (event.ev === 'event' && event.name === 'lobby.changed') this.views.push(event.payload as LobbyView);
      if (event.ev === 'event' && event.name === 'game.snapshot') {
        this.snapshots += 1;
        this.lastSnapshot = event.payload?.snapshot;
      }
      if (event.ev === 'log') this.logs.push({ level: event.level!, line: event.line!, at: event.at! });
    });
  }

  /** Starts the backend in `player`'s namespace and points it at the rendezvous (TURN from it); null: none. */
  static async start(
    lab: Pick<NatLab, 'addresses' | 'spawnIn'>,
    player: string,
    rendezvousUrl: string | null,
    options: {
      readonly logs?: boolean;
      /** Network options over labNetwork's (e.g. the lab router as routerGateways, to map the room's port). */
      readonly network?: Readonly<Record<string, unknown>>;
    } = {},
  ): Promise<RoomPeer> {
    const script = fileURLToPath(new URL('./labRoomPeer.ts', import.meta.url));
    const network = { ...labNetwork(lab.addresses[player]!), ...options.network };
    // Its user-data folder is made and removed here, whichever way the process ends (a lab torn down kills it).
    const userData = mkdtempSync(join(tmpdir(), 'lan-party-lab-room-'));
    const args = [...scriptArgs(script), JSON.stringify(network), userData];
    const child = options.logs
      ? lab.spawnIn(player, 'env', ['LAB_ROOM_LOGS=1', process.execPath, ...args])
      : lab.spawnIn(player, process.execPath, args);
    child.once('close', () => rmSync(userData, { recursive: true, force: true }));
    const peer = new RoomPeer(child);
    // A process in a namespace: under a second idle, many seconds on a busy machine.
    await lineMatching(peer.child, /"ev":"ready"/, 60_000);
    if (rendezvousUrl !== null) {
      await peer.call('settings.update', { internet: { rendezvousUrl, turn: { mode: 'shared-secret' } } });
    }
    return peer;
  }

  async call<T = unknown>(name: string, input?: unknown): Promise<T> {
    const result = await this.tryCall(name, input);
    if (!result.ok) throw new Error(`${name}: ${result.error?.message}\n${this.stderr}`);
    return result.value as T;
  }

  /** Runs a room command (commands answer nothing) and returns the view it led to, read with `lobby.get`. */
  async command(name: string, input?: unknown): Promise<LobbyView> {
    await this.call(name, input);
    return this.call<LobbyView>('lobby.get');
  }

  tryCall(name: string, input?: unknown, timeoutMs = 40_000): Promise<CallResult> {
    return this.request({ call: name, input }, name, timeoutMs);
  }

  /** The hosted room's counters (LobbyHost.stats(): proofs checked, joins refused by reason); null when not hosting. */
  async hostStats(): Promise<LobbyHostStats | null> {
    return (await this.request({ hostStats: true }, 'hostStats', 10_000)).value as LobbyHostStats | null;
  }

  private request(command: Record<string, unknown>, what: string, timeoutMs: number): Promise<CallResult> {
    const id = this.nextId++;
    return new Promise<CallResult>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${what}: no answer\n${this.stderr}`)), timeoutMs);
      this.waiting.set(id, (result) => {
        clearTimeout(timer);
        resolve(result);
      });
      this.child.stdin!.write(`${JSON.stringify({ id, ...command })}\n`);
    });
  }

  /**
   * Joins by `code` (with `password`, for a password room) as a player would: when the host answers "try again
   * in N s" (the room's code guesses) or "Too many tries, wait N s." (its password tries), tries again after
   * those N seconds, at most `maxAttempts` times. Every answer is returned, in order.
   */
  async joinAsPlayer(
    code: string,
    options: { readonly password?: string; readonly maxAttempts?: number } = {},
  ): Promise<{ view?: LobbyView; refusals: string[]; ms: number }> {
    const started = performance.now();
    const refusals: string[] = [];
    const input = options.password === undefined ? { code } : { code, password: options.password };
    for (let attempt = 1; attempt <= (options.maxAttempts ?? 4); attempt += 1) {
      const result = await this.tryCall('lobby.joinByCode', input);
      if (result.ok)
        return { view: await this.call<LobbyView>('lobby.get'), refusals, ms: performance.now() - started };
      const message = result.error?.message ?? '';
      refusals.push(message);
      const wait = /(?:try again in|wait) (\d+) s/.exec(message);
      if (!wait) break;
      await new Promise((r) => setTimeout(r, Number(wait[1]) * 1000));
    }
    return { refusals, ms: performance.now() - started };
  }

  /** The latest view that passes `test`, waiting for one (polls every 50 ms). */
  async until(test: (view: LobbyView) => boolean, what: string, timeoutMs = 15_000): Promise<LobbyView> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const view = this.views.findLast(test);
      if (view) return view;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${this.stderr}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** The first log line after `since` (wall clock) that matches, waiting for one. */
  async logged(pattern: RegExp, since: number, what: string, timeoutMs = 20_000): Promise<LabLogLine> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.logs.find((l) => l.at >= since && pattern.test(l.line));
      if (found) return found;
      if (Date.now() > deadline) {
        const recent = this.logs.slice(-20).map((l) => `${l.level} ${l.line}`);
        const view = this.views.at(-1);
        const where = `status ${view?.status}${view?.end ? ` (${JSON.stringify(view.end)})` : ''}`;
        throw new Error(
          `timed out waiting for ${what}; ${where}; last log lines:\n${recent.join('\n')}\n${this.stderr}`,
        );
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  stop(): void {
    this.child.stdin?.write(`${JSON.stringify({ exit: true })}\n`);
  }
}
