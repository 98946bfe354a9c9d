import { describe, expect, it } from 'vitest';
import { GAME_TICK_DT, GameMessage } from '../../../../shared/game/gameProtocol';
import { applyMove } from '../../../../shared/games/tag/movement';
import type { PlayerBody, PlayerInput } from '../../../../shared/games/tag/types';
import { inputPayload, OPEN_ARENA, startHost } from '../hostKit';

const bodyOf = (p: PlayerBody): PlayerBody => ({ x: p.x, y: p.y, vx: p.vx, vy: p.vy, it: p.it });

describe('GameHost inputs', () => {
  it('moves a guest exactly as its own prediction does, applying each redundant input once', () => {
    const kit = startHost();
    let predicted = bodyOf(kit.player('1'));
    const sent: PlayerInput[] = [];
    for (let seq = 1; seq <= 30; seq += 1) {
      const input: PlayerInput = { sequence: seq, moveX: Math.cos(seq / 4), moveY: Math.sin(seq / 5), tag: false };
      sent.push(input);
      predicted = applyMove(predicted, input, GAME_TICK_DT, OPEN_ARENA);
      const window = sent.slice(-5);
      kit.transport.deliver(1, GameMessage.INPUT, {
        g: 7,
        d: 0.1,
        i: window.map((i) => [i.sequence, i.moveX, i.moveY, 0]),
      });
      kit.ticks(1);
    }
    expect(bodyOf(kit.player('1'))).toEqual(predicted);
    const last = kit.snapshots().at(-1);
    expect(last?.p.find((p) => p[0] === '1')?.[8]).toBe(30);
    // Every copy after the first arrives after its input was applied: stale, not applied again.
    expect(kit.host.stats().inputs).toMatchObject({ accepted: 30, stale: 4 * 30 - 10, duplicate: 0, invalid: 0 });
  });

  it('bridges lost messages with redundancy: the late input is applied once, the repeat paid back', () => {
    const kit = startHost();
    let predicted = bodyOf(kit.player('2'));
    for (let seq = 1; seq <= 40; seq += 1) {
      predicted = applyMove(predicted, { sequence: seq, moveX: 1, moveY: 0, tag: false }, GAME_TICK_DT, OPEN_ARENA);
      const lost = seq % 4 === 2 || seq % 4 === 3; // two in a row lost every four ticks
      if (!lost) {
        const window = Array.from({ length: Math.min(5, seq) }, (_, i) => seq - Math.min(5, seq) + 1 + i);
        kit.transport.deliver(2, GameMessage.INPUT, inputPayload(7, window, { moveX: 1 }));
      }
      kit.ticks(1);
    }
    const stats = kit.host.stats().inputs;
    expect(stats.accepted).toBe(40);
    expect(stats.repeated).toBeGreaterThan(0);
    expect(stats.skipped).toBe(stats.repeated);
    // Steady input: repeats and skips cancel out, so the host agrees with the prediction exactly.
    expect(bodyOf(kit.player('2'))).toEqual(predicted);
  });

  it('queues the host’s own inputs locally', () => {
    const kit = startHost();
    const before = kit.player('0').x;
    kit.host.submitLocalInputs(
      [1, 2, 3].map((sequence) => ({ sequence, moveX: 1, moveY: 0, tag: false })),
      0.03,
    );
    kit.ticks(4);
    expect(kit.player('0').x).toBeGreaterThan(before);
    expect(
      kit
        .snapshots()
        .at(-1)
        ?.p.find((p) => p[0] === '0')?.[8],
    ).toBe(3);
    kit.host.submitLocalInputs([{ sequence: 0, moveX: 1, moveY: 0, tag: false }], 0);
    kit.host.submitLocalInputs([{ sequence: 9, moveX: 1, moveY: 0, tag: false }], NaN);
    expect(kit.host.stats().inputs.invalid).toBe(2);
  });

  it('drops malformed payloads whole, counts them, and keeps running', () => {
    const kit = startHost();
    const good = inputPayload(7, [1]);
    const bad: unknown[] = [
      null,
      'hello',
      [],
      {},
      { ...good, g: '7' },
      { ...good, d: -1 },
      { ...good, d: 'soon' },
      { ...good, i: [] },
      { ...good, i: 'x' },
      { ...good, i: [[0, 0, 0, 0]] },
      { ...good, i: [[-3, 0, 0, 0]] },
      { ...good, i: [[1.5, 0, 0, 0]] },
      { ...good, i: [[2 ** 24, 0, 0, 0]] },
      { ...good, i: [[1, '1', 0, 0]] },
      { ...good, i: [[1, 0, 0, 2]] },
      { ...good, i: [[1, 0, 0]] },
      { ...good, i: [[1, 0, 0, 0, 9]] },
      { ...good, i: Array.from({ length: 17 }, (_, n) => [n + 1, 0, 0, 0]) },
    ];
    for (const payload of bad) kit.transport.deliver(1, GameMessage.INPUT, payload);
    kit.ticks(2);
    expect(kit.host.stats().inputs).toMatchObject({ messages: bad.length, invalid: bad.length, accepted: 0 });
    expect(
      kit
        .snapshots()
        .at(-1)
        ?.p.find((p) => p[0] === '1')?.[8],
    ).toBe(-1);
    kit.transport.deliver(1, GameMessage.INPUT, { ...good, i: [[1, 99, -99, 1]] }); // axes are clamped, not refused
    kit.ticks(2);
    expect(
      kit
        .snapshots()
        .at(-1)
        ?.p.find((p) => p[0] === '1')?.[8],
    ).toBe(1);
    expect(kit.host.running).toBe(true);
  });

  it('ignores inputs for another game, from non-players, and from anyone claiming the host’s seat', () => {
    const kit = startHost();
    kit.transport.deliver(1, GameMessage.INPUT, inputPayload(8, [1]));
    kit.transport.deliver(9, GameMessage.INPUT, inputPayload(7, [1]));
    kit.transport.deliver(0, GameMessage.INPUT, inputPayload(7, [1]));
    kit.ticks(2);
    expect(kit.host.stats().inputs).toMatchObject({ wrongGame: 1, unknownPlayer: 2, accepted: 0 });
  });
});
