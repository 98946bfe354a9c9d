import { createInterface } from 'node:readline';
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { lineMatching } from './lineMatching';
import type { NatLab } from './natLab';
import type { LobbyView } from '../../shared/ipc/schemas/lobby';

const SCRIPT = fileURLToPath(new URL('./labRoomPeer.ts', import.meta.url));

/**
 * A player's network options, all explicit: bind and advertise its own namespace address, discovery only to
 * loopback, the ICE agent told that address. Never the app's defaults.
 */
function labNetwork(ownAddress: string) {
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
  };
}

type CallResult = { ok: boolean; value?: unknown; error?: { message: string } };

/** A whole backend (labRoomPeer.ts) in a lab player's namespace, called over its stdio. */
export class RoomPeer {
  readonly views: LobbyView[] = [];
  /** game.snapshot events seen so far. */
  snapshots = 0;
  private nextId = 1;
  private readonly waiting = new Map<number, (result: CallResult) => void>();
  private stderr = '';

  private constructor(readonly child: ChildProcess) {
    child.stderr?.on('data', (chunk: Buffer) => (this.stderr = (this.stderr + chunk.toString()).slice(-4000)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const event = JSON.parse(line) as { ev: string; id?: number; result?: never; name?: string; payload?: unknown };
      if (event.ev === 'result') this.waiting.get(event.id!)?.(event.result!);
      if (event.ev === 'event' && event.name === 'lobby.changed') this.views.push(event.payload as LobbyView);
      if (event.ev === 'event' && event.name === 'game.snapshot') this.snapshots += 1;
    });
  }

  /** Starts the backend in `player`'s namespace with `rendezvousUrl` and shared-secret TURN in its settings. */
  static async start(lab: NatLab, player: string, rendezvousUrl: string): Promise<RoomPeer> {
    const child = lab.spawnIn(player, process.execPath, [
      '--import',
      'tsx',
      SCRIPT,
      JSON.stringify(labNetwork(lab.addresses[player]!)),
    ]);
    const peer = new RoomPeer(child);
    // A tsx process in a namespace: ~2 s idle, over 20 s on a busy machine.
    await lineMatching(child, /"ev":"ready"/, 60_000);
    await peer.call('settings.update', { internet: { rendezvousUrl, turn: { mode: 'shared-secret' } } });
    return peer;
  }

  async call<T = LobbyView>(name: string, input?: unknown): Promise<T> {
    const result = await this.tryCall(name, input);
    if (!result.ok) throw new Error(`${name}: ${result.error?.message}\n${this.stderr}`);
    return result.value as T;
  }

  tryCall(name: string, input?: unknown, timeoutMs = 40_000): Promise<CallResult> {
    const id = this.nextId++;
    return new Promise<CallResult>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${name}: no answer\n${this.stderr}`)), timeoutMs);
      this.waiting.set(id, (result) => {
        clearTimeout(timer);
        resolve(result);
      });
      this.child.stdin!.write(`${JSON.stringify({ id, call: name, input })}\n`);
    });
  }

  /**
   * Joins by `code` as a player would: when the host answers "try again in N s" (the room's guess budget),
   * tries again after those N seconds, at most `maxAttempts` times. Every answer is returned, in order.
   */
  async joinAsPlayer(code: string, maxAttempts = 4): Promise<{ view?: LobbyView; refusals: string[]; ms: number }> {
    const started = performance.now();
    const refusals: string[] = [];
    for (let attempt = 1; attempt <= maxAttempts; attempt += 1) {
      const result = await this.tryCall('lobby.joinByCode', { code });
      if (result.ok) return { view: result.value as LobbyView, refusals, ms: performance.now() - started };
      const message = result.error?.message ?? '';
      refusals.push(message);
      const wait = /try again in (\d+) s/.exec(message);
      if (!wait) break;
      await new Promise((r) => setTimeout(r, Number(wait[1]) * 1000));
    }
    return { refusals, ms: performance.now() - started };
  }

  async until(test: (view: LobbyView) => boolean, what: string, timeoutMs = 15_000): Promise<LobbyView> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const view = this.views.findLast(test);
      if (view) return view;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${this.stderr}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Asks the backend to close and exit (NatLab.destroy kills it if it does not). */
  stop(): void {
    this.child.stdin?.write(`${JSON.stringify({ exit: true })}\n`);
  }
}
