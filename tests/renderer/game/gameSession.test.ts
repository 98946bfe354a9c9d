import { describe, expect, it, vi } from 'vitest';
import { GameSession } from '../../../renderer/src/game/gameSession';
import type { GameApi } from '../../../renderer/src/game/gameApi';
import { hudOf } from '../../../renderer/src/games/tag/hudModel';
import type { ClientControls, ViewFrame } from '../../../shared/games/tag/client/clientView';
import { tagGame } from '../../../shared/games/tag/tagGame';
import { createGame } from '../../../shared/games/tag/createGame';
import { toSnapshot } from '../../../shared/games/tag/wire/snapshot';
import type { PlayerInput } from '../../../shared/games/tag/types';
import type {
  GameCurrent,
  GameEnded,
  GameInputRequest,
  GameResultsPayload,
  GameRosterPayload,
  GameSnapshotEvent,
} from '../../../shared/ipc/schemas/game';

/** A fake API: events are pushed by the test, requests recorded. */
function fakeApi(current: GameCurrent = { you: '0', roster: null, results: null }) {
  const listeners = {
    roster: new Set<(r: GameRosterPayload) => void>(),
    snapshot: new Set<(e: GameSnapshotEvent) => void>(),
    results: new Set<(r: GameResultsPayload) => void>(),
    ended: new Set<(e: GameEnded) => void>(),
  };
  const sub =
    <T>(set: Set<(v: T) => void>) =>
    (cb: (v: T) => void) => {
      set.add(cb);
      return () => set.delete(cb);
    };
  const inputs: GameInputRequest[] = [];
  let accept = true;
  let answer: (value: GameCurrent) => void = () => {};
  const api: GameApi = {
    'game.get': vi.fn(() => new Promise<GameCurrent>((resolve) => (answer = resolve))),
    'game.input': vi.fn(async (input: GameInputRequest) => {
      inputs.push(input);
      return { accepted: accept };
    }),
    'net.stats': async () => ({ role: null, links: [], conditioner: null, snapshotsPerSecond: null }),
    onGameRoster: sub(listeners.roster),
    onGameSnapshot: sub(listeners.snapshot),
    onGameResults: sub(listeners.results),
    onGameEnded: sub(listeners.ended),
  };
  return {
    api,
    inputs,
    listeners,
    answer: () => answer(current),
    reject: () => (accept = false),
    push: {
      roster: (r: GameRosterPayload) => listeners.roster.forEach((cb) => cb(r)),
      snapshot: (e: GameSnapshotEvent) => listeners.snapshot.forEach((cb) => cb(e)),
      results: (r: GameResultsPayload) => listeners.results.forEach((cb) => cb(r)),
      ended: (e: GameEnded) => listeners.ended.forEach((cb) => cb(e)),
    },
  };
}

const roster = (game: number): GameRosterPayload => ({
  game,
  players: [
    { id: '0', name: 'Ada', colour: '#e6194b' },
    { id: '1', name: 'Bo', colour: '#3cb44b' },
  ],
});
const state = createGame({ players: roster(1).players, seed: 3, roundDuration: 60, countdown: 0 });
const snapshotOf = (game: number) => ({ game, snapshot: toSnapshot(state, {}) });
const flush = () => new Promise((r) => setTimeout(r, 0));

async function started(current?: GameCurrent) {
  const fake = fakeApi(current);
  const onChange = vi.fn();
  const session = new GameSession({ game: tagGame, api: fake.api, you: '0', interpolationDelay: 0.05, onChange });
  let now = 10;
  const starting = session.start(() => now);
  fake.answer();
  await starting;
  return { fake, session, onChange, at: (t: number) => (now = t) };
}

describe('game session', () => {
  it('catches up from game.get: roster names, nothing to draw before a snapshot', async () => {
    const { session, fake } = await started({ you: '0', roster: roster(4), results: null });
    expect(session.game).toBe(4);
    expect(session.look('1')).toEqual({ name: 'Bo', colour: '#3cb44b' });
    expect(session.look('7').name).toBe('Player 7');
    const frame = session.frame(10, { moveX: 1, moveY: 0, tag: false });
    expect(frame).toMatchObject({ tick: undefined, players: [] });
    expect(hudOf(frame!, session.look).phase).toBe('connecting');
    expect(fake.inputs).toEqual([]);
  });

  it('predicts the local player from the controls and sends each input once with its delay', async () => {
    const { session, fake, at } = await started();
    expect(session.frame(10, { moveX: 1, moveY: 0, tag: false })).toBeNull();
    fake.push.roster(roster(1));
    fake.push.snapshot(snapshotOf(1));
    const startX = state.players[0]!.x;
    let last = session.frame(at(10), { moveX: 1, moveY: 0, tag: false });
    for (let i = 1; i <= 30; i += 1) last = session.frame(at(10 + i / 60), { moveX: 1, moveY: 0, tag: i === 5 });
    const self = last!.players.find((p) => p.self)!;
    expect(self.x).toBeGreaterThan(startX + 20);
    const sent = fake.inputs.flatMap((r) => r.inputs);
    expect(sent.map((i) => i.sequence)).toEqual(sent.map((_, k) => k + 1));
    expect(sent.filter((i) => (i as PlayerInput).tag)).toHaveLength(1);
    expect(fake.inputs.every((r) => r.interpolationDelay === 0.05 && r.inputs.length <= 16)).toBe(true);
    expect(session.takeSnapshotCount()).toBe(1);
    expect(session.takeSnapshotCount()).toBe(0);
    expect(hudOf(session.sample(10.5)!, session.look)).toMatchObject({
      phase: 'playing',
      rows: [{ name: expect.any(String) }, {}],
    });
  });

  it('shows the HUD the frame last drawn, not one sampled anew (the delay is measured at draws), until a new game', async () => {
    const { session, fake, at } = await started();
    expect(session.interpolationDelay).toBeUndefined();
    fake.push.roster(roster(1));
    fake.push.snapshot(snapshotOf(1));
    expect(session.sample(10)).not.toBeNull(); // before any frame: sampled at the time asked
    const drawn = session.frame(at(10.2), { moveX: 1, moveY: 0, tag: false });
    expect(session.sample(12)).toBe(drawn);
    expect(session.interpolationDelay).toBe(0.05);
    fake.push.roster(roster(2));
    expect(session.sample(12)).not.toBe(drawn);
  });

  it('counts inputs the backend refuses, and stops sending once the round is over', async () => {
    const { session, fake, onChange } = await started();
    fake.push.snapshot(snapshotOf(1));
    fake.reject();
    session.frame(20, { moveX: 0, moveY: 1, tag: false });
    await flush();
    expect(session.inputsRejected).toBeGreaterThan(0);
    const results: GameResultsPayload = { game: 1, reason: 'finished', winners: ['1'], scores: [], holdSeconds: 5 };
    fake.push.results({ ...results, game: 99 });
    expect(session.finalResults).toBeNull();
    fake.push.results(results);
    expect(session.finalResults).toEqual(results);
    expect(onChange).toHaveBeenCalled();
    const before = fake.inputs.length;
    session.frame(21, { moveX: 0, moveY: 1, tag: false });
    expect(fake.inputs.length).toBe(before);
  });

  it('a new game id starts a fresh view; an end without results is kept with its reason', async () => {
    const { session, fake } = await started();
    fake.push.roster(roster(1));
    fake.push.snapshot(snapshotOf(1));
    fake.push.ended({ game: 5, reason: 'other game' });
    expect(session.endedEarly).toBeNull();
    fake.push.ended({ game: 1, reason: 'The host ended the round.' });
    expect(session.endedEarly?.reason).toBe('The host ended the round.');
    fake.push.snapshot(snapshotOf(2));
    expect(session.game).toBe(2);
    expect(session.endedEarly).toBeNull();
    expect(session.look('1').name).toBe('Player 1');
  });

  it('events that arrive while game.get is pending win over its older answer', async () => {
    const fake = fakeApi({ you: '0', roster: roster(1), results: null });
    const session = new GameSession<ClientControls, ViewFrame>({
      game: tagGame,
      api: fake.api,
      you: '0',
      interpolationDelay: 0.1,
    });
    const starting = session.start(() => 0);
    fake.push.roster(roster(2));
    fake.answer();
    await starting;
    expect(session.game).toBe(2);
    session.dispose();
    expect([...Object.values(fake.listeners)].every((set) => set.size === 0)).toBe(true);
  });
});
