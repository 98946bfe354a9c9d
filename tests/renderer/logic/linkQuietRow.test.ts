import { createElement, type FunctionComponent } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { LINK_QUIET_LABEL, awayLabel } from '../../../renderer/src/logic/away';
import { createLobbyState, type LobbyPlayer, type LobbyState } from '../../../shared/lobby/lobbyState';

// Loaded by a runtime path: the node tsconfig that checks tests has no JSX (the renderer's own config checks it).
const listModule = '../../../renderer/src/components/room/PlayerList';
const { PlayerList } = (await import(/* @vite-ignore */ listModule)) as {
  PlayerList: FunctionComponent<{ state: LobbyState; you: number | null; canKick: boolean; onKick: () => void }>;
};

const guest: LobbyPlayer = {
  id: 2,
  name: 'Grace',
  colour: '#22c55e',
  ready: true,
  host: false,
  pingMs: 40,
  path: 'direct',
};

function listOf(player: LobbyPlayer): string {
  const state = createLobbyState(
    { roomName: 'Den', capacity: 4, passwordProtected: false },
    { name: 'Ada', colour: '#3b82f6' },
  );
  return renderToStaticMarkup(
    createElement(PlayerList, {
      state: { ...state, players: [...state.players, player] },
      you: 0,
      canKick: true,
      onKick: () => {},
    }),
  );
}

/** The guest's row (the last player row). */
function rowOf(player: LobbyPlayer): string {
  return listOf(player).split('data-testid="player-row"').at(-1)!;
}

describe('a quiet link on the player row', () => {
  it('shows "reconnecting…" greyed like the away row, without a countdown or a ping', () => {
    const row = rowOf({ ...guest, linkQuiet: true });
    expect(row).toContain('<span data-testid="player-away">reconnecting…</span>');
    expect(row).not.toMatch(/\d+ s</);
    expect(row).not.toContain('40 ms');
    expect(listOf({ ...guest, linkQuiet: true }).match(/player-row-away/g)).toHaveLength(1);
    expect(listOf(guest)).not.toContain('player-row-away');
  });

  it('shows the ping again once heard', () => {
    const row = rowOf(guest);
    expect(row).not.toContain('player-away');
    expect(row).toContain('player-path');
  });

  it('lets a held seat’s countdown win over the quiet marker', () => {
    expect(awayLabel({ awayUntil: 31_000, linkQuiet: true }, 1_000)).toBe('Reconnecting… 30 s');
    expect(awayLabel({ linkQuiet: true }, 1_000)).toBe(LINK_QUIET_LABEL);
    expect(awayLabel({}, 1_000)).toBeUndefined();
  });
});
