import type { LobbyView } from '../../../shared/ipc/schemas/lobby';
import { canStart } from '../../../shared/lobby/lobbyReducer';

/** Something worth a desktop notification while the window is in the background. */
export type LobbyNotice =
  | { readonly kind: 'player-joined'; readonly name: string }
  | { readonly kind: 'all-ready' }
  | { readonly kind: 'round-started' };

function sameStay(before: LobbyView, after: LobbyView): boolean {
  return (
    before.status === 'in-room' &&
    after.status === 'in-room' &&
    before.role === after.role &&
    before.you === after.you &&
    before.target?.host === after.target?.host &&
    before.target?.port === after.target?.port
  );
}

/**
 * What changed between two lobby views that the player would want to hear about: someone else joined, everyone
 * is ready (only the host, who starts the round, is told), the round started. Nothing when the views are not the
 * same stay in the same room: entering a room does not announce everyone already there.
 */
export function lobbyNotices(before: LobbyView, after: LobbyView): LobbyNotice[] {
  const [was, now] = [before.state, after.state];
  if (!was || !now || !sameStay(before, after)) return [];
  const notices: LobbyNotice[] = [];
  const known = new Set(was.players.map((p) => p.id));
  for (const player of now.players) {
    if (!known.has(player.id) && player.id !== after.you) notices.push({ kind: 'player-joined', name: player.name });
  }
  if (after.role === 'host' && !canStart(was) && canStart(now)) notices.push({ kind: 'all-ready' });
  if (was.phase === 'lobby' && now.phase === 'playing') notices.push({ kind: 'round-started' });
  return notices;
}

/** A notice's title and body. */
export function noticeText(notice: LobbyNotice, roomName: string): { title: string; body: string } {
  switch (notice.kind) {
    case 'player-joined':
      return { title: `${notice.name} joined`, body: `${notice.name} is in ${roomName}.` };
    case 'all-ready':
      return { title: 'Everyone is ready', body: `Start the round in ${roomName} when you like.` };
    case 'round-started':
      return { title: 'The round started', body: `The round in ${roomName} is on.` };
  }
}
