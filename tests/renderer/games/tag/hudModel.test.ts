import { describe, expect, it } from 'vitest';
import type { ViewFrame, ViewPlayer } from '../../../../shared/games/tag/client/clientView';
import { fallbackLook } from '../../../../renderer/src/game/playerLook';
import { formatClock } from '../../../../renderer/src/game/formatClock';
import { CONNECTING_HUD, hudOf, sameHud } from '../../../../renderer/src/games/tag/hudModel';

const looks: Record<string, { name: string; colour: string }> = {
  '0': { name: 'Ada', colour: '#e6194b' },
  '1': { name: 'Bo', colour: '#3cb44b' },
  '2': { name: 'Cy', colour: '#4363d8' },
};
const look = (id: string) => looks[id] ?? fallbackLook(id);
const player = (id: string, score: number, extra: Partial<ViewPlayer> = {}): ViewPlayer => ({
  id,
  x: 0,
  y: 0,
  it: false,
  score,
  cooldown: 0,
  immunity: 0,
  self: false,
  extrapolated: false,
  ...extra,
});
const frame = (players: ViewPlayer[], timeRemaining = 42.3): ViewFrame => ({
  tick: 10,
  phase: 'playing',
  timeRemaining,
  countdown: 0,
  players,
});

describe('HUD model', () => {
  it('formats the countdown, rounding up', () => {
    expect([
      formatClock(65),
      formatClock(64.01),
      formatClock(9.5),
      formatClock(0),
      formatClock(-3),
      formatClock(NaN),
    ]).toEqual(['1:05', '1:05', '0:10', '0:00', '0:00', '0:00']);
  });

  it('is "connecting" before the first snapshot', () => {
    const none: ViewFrame = { tick: undefined, phase: 'waiting', timeRemaining: 0, countdown: 0, players: [] };
    expect(hudOf(none, look)).toBe(CONNECTING_HUD);
  });

  it('sorts the scoreboard by score (ties in join order) and finds who is it and our cooldown', () => {
    const hud = hudOf(
      frame([player('0', 3), player('1', 7.5, { it: true }), player('2', 3, { self: true, cooldown: 0.84 })]),
      look,
    );
    expect(hud.rows.map((r) => `${r.name}:${r.score}`)).toEqual(['Bo:7.5', 'Ada:3', 'Cy:3']);
    expect(hud.it).toMatchObject({ id: '1', name: 'Bo', colour: '#3cb44b' });
    expect(hud).toMatchObject({ phase: 'playing', secondsLeft: 43, cooldown: 0.84 });
    expect(hudOf(frame([player('9', 1)]), look).rows[0]).toMatchObject({ name: 'Player 9', unnamed: true });
    expect(hud.rows.every((r) => r.unnamed === undefined)).toBe(true);
  });

  it('only reports a change React would show', () => {
    const a = hudOf(frame([player('0', 3), player('1', 1, { self: true, cooldown: 0.5 })]), look);
    expect(sameHud(a, hudOf(frame([player('0', 3), player('1', 1, { self: true, cooldown: 0.45 })]), look))).toBe(true);
    expect(sameHud(a, hudOf(frame([player('0', 3), player('1', 1, { self: true, cooldown: 0.35 })]), look))).toBe(
      false,
    );
    expect(sameHud(a, hudOf(frame([player('0', 3.1), player('1', 1, { self: true, cooldown: 0.5 })]), look))).toBe(
      false,
    );
    expect(sameHud(a, hudOf(frame([player('0', 3), player('1', 1, { self: true, cooldown: 0.5 })], 30), look))).toBe(
      false,
    );
  });
});

describe('HUD model: the round countdown', () => {
  it('shows whole seconds of the 3-2-1, rounded up, and nothing once the round runs', () => {
    const players = [player('0', 0, { it: true }), player('1', 0, { self: true })];
    const at = (countdown: number) => hudOf({ ...frame(players), countdown }, look).countdown;
    expect([at(3), at(2.95), at(2), at(1.01), at(0.05), at(0)]).toEqual([3, 3, 2, 2, 1, 0]);
    expect(hudOf({ ...frame(players), countdown: 2, phase: 'ended' }, look).countdown).toBe(0);
    const hud = hudOf({ ...frame(players), countdown: 2.5 }, look);
    expect(hud.it).toMatchObject({ id: '0', name: 'Ada', self: false });
  });

  it('re-renders when the countdown ticks', () => {
    const players = [player('0', 0, { it: true })];
    const a = hudOf({ ...frame(players), countdown: 2.5 }, look);
    expect(sameHud(a, hudOf({ ...frame(players), countdown: 2.1 }, look))).toBe(true);
    expect(sameHud(a, hudOf({ ...frame(players), countdown: 1.9 }, look))).toBe(false);
  });
});
