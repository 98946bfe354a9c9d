import { describe, expect, it } from 'vitest';
import { HostInputs } from '../../../../main/game/host/hostInputs';
import { rewindSeconds } from '../../../../main/game/host/lagHistories';
import type { GamePlayer } from '../../../../main/game/host/gameHost';
import { GameMessage, MAX_INPUT_SEQUENCE, ROSTER_PART_SIZE } from '../../../../shared/game/gameProtocol';
import { parseRosterPayload, parseSnapshotPayload } from '../../../../shared/game/gameSchemas';
import type { GameSnapshot } from '../../../../shared/games/tag/wire/snapshot';
import { tagGame } from '../../../../shared/games/tag/tagGame';
import type { GameState } from '../../../../shared/games/tag/types';
import { inputPayload, startHost } from '../hostKit';

const V1_BODY_LIMIT = 1200;

/** Sixteen players with lobby ids of `idDigits` digits (the host is always 0) and the longest names there are. */
function sixteen(idDigits: number): GamePlayer[] {
  const astral = '😀'.repeat(16); // each code point is a surrogate pair: 12 bytes once JSON-escaped as ASCII
  return Array.from({ length: 16 }, (_, i) => ({
    id: i === 0 ? 0 : 10 ** (idDigits - 1) + i,
    name: i % 2 === 0 ? astral : 'W'.repeat(24),
    colour: '#abcdef',
  }));
}

/** Every number in the snapshot at its longest printed form: 4-digit positions with decimals, negative velocities… */
function worstCase(state: GameState): GameState {
  return {
    ...state,
    tick: 35_999,
    elapsed: 599.987,
    timeRemaining: 599.9,
    players: state.players.map((p, i) => ({
      ...p,
      x: 1579.987,
      y: 879.987,
      vx: -351.94,
      vy: -351.94,
      score: 599.94,
      cooldown: 1.349,
      it: i === 1,
    })),
  };
}

describe('game messages fit one gale.net v1 datagram', () => {
  it('a 16-player snapshot with maximal ids, acks, positions and scores stays within 1200 bytes', () => {
    const kit = startHost({ players: sixteen(5), roundDuration: 600, prepare: worstCase });
    for (let peer = 1; peer < 16; peer += 1) {
      const id = 10_000 + peer;
      kit.transport.deliver(id, GameMessage.INPUT, inputPayload(7, [MAX_INPUT_SEQUENCE], { moveX: -1, moveY: -1 }));
    }
    kit.host.submitLocalInputs([{ sequence: MAX_INPUT_SEQUENCE, moveX: -1, moveY: -1, tag: false }], 0.1);
    kit.ticks(2);
    const sent = kit.transport.ofType(GameMessage.SNAPSHOT).at(-1);
    expect(kit.host.stats().snapshotsTooLarge).toBe(0);
    expect(sent?.bytes).toBeLessThanOrEqual(V1_BODY_LIMIT);
    expect(sent?.bytes).toBeGreaterThan(1050); // the worst case really was built
    const parsed = parseSnapshotPayload(sent?.payload, tagGame.snapshot);
    expect(parsed?.snapshot.p).toHaveLength(16);
    expect(parsed?.snapshot.p.every((p) => p[8] === MAX_INPUT_SEQUENCE)).toBe(true);
  });

  it('splits the roster into parts that each fit, even with 16 names of astral-plane characters', () => {
    const kit = startHost({ players: sixteen(5) });
    const parts = kit.transport.ofType(GameMessage.ROSTER);
    expect(parts).toHaveLength(16 / ROSTER_PART_SIZE);
    expect(Math.max(...parts.map((p) => p.bytes))).toBeLessThanOrEqual(V1_BODY_LIMIT);
    const names = parts.flatMap((p) => parseRosterPayload(p.payload)?.p.map((e) => e[1]) ?? []);
    expect(names[0]).toBe('😀'.repeat(16));
    expect(names[1]).toBe('W'.repeat(16)); // sanitizeName caps names at 16 characters
  });

  it('sends 16-player results within the limit', () => {
    const kit = startHost({ players: sixteen(5), roundDuration: 0.05 });
    kit.ticks(4);
    const results = kit.transport.ofType(GameMessage.RESULTS);
    expect(results).toHaveLength(1);
    expect(results[0]?.bytes).toBeLessThanOrEqual(V1_BODY_LIMIT);
  });

  it('counts (and skips) a snapshot that cannot fit instead of throwing, and in-process players still get it', () => {
    // Eight-digit lobby ids are far beyond any real session; they make the snapshot too big for one datagram.
    const kit = startHost({ players: sixteen(8), roundDuration: 600, prepare: worstCase });
    const local: GameSnapshot[] = [];
    kit.host.attachLocal({
      snapshot: (s) => local.push(s),
      roster: () => undefined,
      results: () => undefined,
      stopped: () => undefined,
    });
    for (let peer = 1; peer < 16; peer += 1) {
      kit.transport.deliver(10_000_000 + peer, GameMessage.INPUT, inputPayload(7, [MAX_INPUT_SEQUENCE]));
    }
    expect(() => kit.ticks(2)).not.toThrow();
    expect(kit.host.stats().snapshotsTooLarge).toBeGreaterThan(0);
    expect(local.length).toBeGreaterThan(0);
    expect(kit.host.running).toBe(true);
  });
});

describe('lag compensation rewind', () => {
  it('is queue delay + RTT + the reported interpolation delay, the last clamped to 0.25 s', () => {
    expect(rewindSeconds({ queueDelay: 0.02, rtt: 0.06, interpolationDelay: 0.1 })).toBeCloseTo(0.18, 10);
    expect(rewindSeconds({ queueDelay: 0, rtt: 0.06, interpolationDelay: 5 })).toBeCloseTo(0.31, 10);
    expect(rewindSeconds({ queueDelay: -1, rtt: undefined, interpolationDelay: -2 })).toBe(0);
    expect(rewindSeconds({ queueDelay: 0, rtt: NaN, interpolationDelay: 0.1 })).toBeCloseTo(0.1, 10);
  });

  it('is computed per applied input from its first arrival, with the sender’s RTT', () => {
    let now = 10;
    const inputs = new HostInputs({
      codec: tagGame.input,
      gameId: 7,
      players: ['0', '1'],
      hostPlayerId: '0',
      hostTime: () => now,
      rttOf: (id) => (id === '1' ? 0.06 : 99),
    });
    inputs.receive(1, inputPayload(7, [1, 2], { d: 0.1 }));
    now = 10.01;
    inputs.receive(1, inputPayload(7, [1, 2, 3], { d: 9 })); // copies keep their first arrival; the delay is clamped
    expect(inputs.next('1', 10.05).rewind).toBeCloseTo(0.05 + 0.06 + 0.25, 10);
    expect(inputs.next('1', 10.05).rewind).toBeCloseTo(0.05 + 0.06 + 0.25, 10);
    expect(inputs.next('1', 10.05).rewind).toBeCloseTo(0.04 + 0.06 + 0.25, 10);
    expect(inputs.next('1', 10.05).rewind).toBeUndefined(); // starved: a repeat cannot tag
    inputs.acceptLocal([{ sequence: 1, moveX: 0, moveY: 0, tag: true }], 0.03);
    expect(inputs.next('0', 10.05).rewind).toBeCloseTo(0.04 + 0.03, 10); // the host's own player has no RTT
  });
});
