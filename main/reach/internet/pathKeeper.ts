import type { Scheduler, TimerHandle } from '../../base/scheduler';
import type { DatagramSocket } from '../../net/index';
import type { SwitchableSocket } from './switchableSocket';

/** A path to the room as the keeper holds it: its socket and what to close when it is replaced. */
export interface KeptPath {
  readonly socket: DatagramSocket;
  close(): Promise<void>;
}

/** One ICE restart, as the keeper reports it. */
export interface PathRestart {
  readonly ok: boolean;
  /** From the last datagram heard on the old path to the new path taking over (or to giving up), ms. */
  readonly gapMs: number;
  /** The restart itself (rendezvous, ICE checks, keys), ms. */
  readonly tookMs: number;
  /** The silence that counted as the path gone this time ({@link silenceLimit}), ms. */
  readonly limitMs: number;
  readonly error?: unknown;
}

/** Options of {@link keepPathAlive}. */
export interface PathKeeperOptions {
  readonly socket: SwitchableSocket;
  /** The first path (its ICE session, closed when it is replaced or the keeper closes). */
  readonly first: KeptPath;
  readonly scheduler: Scheduler;
  /** Opens a new path to the same room over the rendezvous: new ICE credentials, candidates and keys. */
  readonly reopen: () => Promise<KeptPath>;
  /**
   * The longest silence on the path before it counts as gone, ms (default 2500): both ends send at least a
   * heartbeat a second, so 2.5 s is two and a half missed (consent-freshness loss; after an address change
   * nothing arrives at all). Sooner when the path was busier: see {@link silenceLimit}.
   */
  readonly silenceMs?: number;
  /** The shortest silence that counts, however busy the path was, ms. Default 1000. */
  readonly minSilenceMs?: number;
  /** How often the silence is checked, ms. Default 250. */
  readonly checkMs?: number;
  /** Pause after a restart that failed before the next, ms (the rendezvous may be restarting too). Default 1000. */
  readonly retryMs?: number;
  readonly onRestart?: (restart: PathRestart) => void;
  /** After a good restart, the first datagram over the new path: `gapMs` from the last one over the old path. */
  readonly onHeardAgain?: (heard: { readonly gapMs: number }) => void;
}

/** A running keeper. */
export interface PathKeeper {
  /** Restarts so far, good or not. */
  readonly restarts: number;
  /** Stops watching and closes the current path's session. */
  close(): Promise<void>;
}

/** How much longer than the largest recent gap between datagrams a silence must last to count. */
const SILENCE_FACTOR = 1.5;

/**
 * The silence after which the path counts as gone: 1.5× the largest gap between datagrams lately, within
 * [min, max]. Mid-round the host sends 20 snapshots a second, so a second of nothing is already a dead path; in
 * the lobby a ping and a pong a second each way put it near 1.5 s; with too few datagrams to tell, the maximum.
 * A restart too many costs a rendezvous round trip, not the session: the old path carries on until the new one
 * takes over.
 */
export function silenceLimit(largestRecentGap: number | undefined, minMs: number, maxMs: number): number {
  if (largestRecentGap === undefined) return maxMs;
  return Math.min(maxMs, Math.max(minMs, largestRecentGap * SILENCE_FACTOR));
}

/** Watches an internet path and restarts ICE over the rendezvous when it falls silent, one restart at a time. */
export function keepPathAlive(options: PathKeeperOptions): PathKeeper {
  const { socket, scheduler } = options;
  const silenceMs = options.silenceMs ?? 2500;
  const minSilenceMs = Math.min(options.minSilenceMs ?? 1000, silenceMs);
  let current = options.first;
  let restarting = false;
  let closed = false;
  let restarts = 0;
  let notBefore = 0;

  const restart = async (limitMs: number): Promise<void> => {
    restarting = true;
    restarts += 1;
    const silentSince = socket.lastHeardAt;
    const started = scheduler.now();
    try {
      const next = await options.reopen();
      if (closed) {
        await next.close();
        return;
      }
      await socket.switchTo(next.socket);
      socket.onNextHeard((at) => options.onHeardAgain?.({ gapMs: at - silentSince }));
      const previous = current;
      current = next;
      void previous.close().catch(() => undefined);
      const done = scheduler.now();
      options.onRestart?.({ ok: true, gapMs: done - silentSince, tookMs: done - started, limitMs });
    } catch (error) {
      const done = scheduler.now();
      notBefore = done + (options.retryMs ?? 1000);
      options.onRestart?.({ ok: false, gapMs: done - silentSince, tookMs: done - started, limitMs, error });
    } finally {
      restarting = false;
    }
  };

  const checkMs = options.checkMs ?? 250;
  let lastCheck = scheduler.now();
  const timer: TimerHandle = scheduler.setRepeating(() => {
    const now = scheduler.now();
    // A check that comes late means this process was stalled (a busy machine): the datagrams that arrived
    // meanwhile are still queued behind this timer, so the silence may be ours. Look again next time.
    const stalled = now - lastCheck > 2 * checkMs;
    lastCheck = now;
    // The Client closed the socket (it gave up on the path, or the guest left): nothing left to keep alive.
    if (socket.isClosed) return void keeper.close();
    if (closed || restarting || stalled || now < notBefore) return;
    const limitMs = silenceLimit(socket.largestRecentGap, minSilenceMs, silenceMs);
    // restart reports its failure through onRestart and never rejects.
    if (now - socket.lastHeardAt >= limitMs) void restart(limitMs);
  }, checkMs);

  const keeper: PathKeeper = {
    get restarts() {
      return restarts;
    },
    async close() {
      if (closed) return;
      closed = true;
      scheduler.clearTimer(timer);
      await current.close().catch(() => undefined);
    },
  };
  return keeper;
}
