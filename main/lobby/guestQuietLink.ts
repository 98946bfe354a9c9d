import type { Client } from '../net/index';
import type { LobbyState } from '../../shared/lobby/lobbyState';
import { backgroundScheduler, type Scheduler } from '../base/scheduler';
import { QUIET_CHECK_MS, QuietLinks, quietAfterMs } from './host/quietLinks';

/** What a guest's own-link watch reads of the guest: its id, room state, current connection, and whether it ended. */
export interface WatchedGuest {
  readonly you: number;
  readonly state: LobbyState;
  readonly transport: { readonly current: Client };
  readonly endReason: unknown;
}

/** The room with our own row marked "reconnecting…" (no countdown) or not. Pure. */
export function withOwnLinkQuiet(state: LobbyState, you: number, quiet: boolean): LobbyState {
  return {
    ...state,
    players: state.players.map((p) => {
      if (p.id !== you) return p;
      const { linkQuiet: _was, ...rest } = p;
      return quiet ? { ...rest, linkQuiet: true } : rest;
    }),
  };
}

/**
 * Shows the guest its own row "reconnecting…" while it hears nothing from the host (an ICE restart gap, a blip),
 * the same threshold as the host's marker; the host's events cannot say so then, none arrive. Clears only the
 * marker it set, so one the host sent (it does not hear us) stays. Stops once the guest's stay ends.
 */
export function watchOwnLink(
  guest: WatchedGuest,
  show: (state: LobbyState) => void,
  transport: { readonly heartbeatInterval?: number } = {},
  clock: Scheduler = backgroundScheduler,
): void {
  const quiet = new QuietLinks(quietAfterMs(transport.heartbeatInterval));
  let marked = false;
  const timer = clock.setRepeating(() => {
    if (guest.endReason !== undefined) return clock.clearTimer(timer);
    const client = guest.transport.current;
    const received = client.connectionCounters?.datagramsReceived ?? 0;
    for (const change of quiet.check(clock.now(), [{ seat: guest.you, peerId: client.peerId ?? 0, received }])) {
      if (!change.quiet && !marked) continue;
      marked = change.quiet;
      show(withOwnLinkQuiet(guest.state, guest.you, change.quiet));
    }
  }, QUIET_CHECK_MS);
}
