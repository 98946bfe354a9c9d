import { describe, expect, it, vi } from 'vitest';
import { GameMessage } from '../../../../shared/game/gameProtocol';
import { Channel } from '../../../../shared/net/channel';
import { placing, startHost } from '../hostKit';

describe('GameHost: the host ends the round early', () => {
  it('ends it now as if its time had run out: final snapshot, the scores so far, results under the hold', () => {
    const kit = startHost({
      roundDuration: 90,
      resultsHoldSeconds: 240,
      prepare: placing({ '1': { it: true }, '0': { it: false }, '2': { it: false } }),
    });
    const results = vi.fn();
    kit.host.attachLocal({ snapshot: () => undefined, roster: () => undefined, results, stopped: () => undefined });
    kit.ticks(30);
    expect(kit.ended).toEqual([]);
    expect(kit.host.endRound()).toBe(true);
    expect(kit.host.running).toBe(false);
    expect(kit.ended).toEqual([
      {
        game: 7,
        reason: 'finished',
        winners: ['0', '2'],
        scores: [
          { id: '0', score: 0.5, stat: 0 },
          { id: '1', score: 0, stat: 0 },
          { id: '2', score: 0.5, stat: 0 },
        ],
        holdSeconds: 240,
      },
    ]);
    expect(results).toHaveBeenCalledWith(kit.ended[0]);
    // The guests see the round over (a last snapshot, phase ended, no time left), then the results, reliably.
    const last = kit.snapshots().at(-1);
    expect({ ph: last?.ph, r: last?.r }).toEqual({ ph: 'ended', r: 0 });
    expect(kit.transport.sent.map((m) => m.type).at(-1)).toBe(GameMessage.RESULTS);
    expect(kit.transport.ofType(GameMessage.RESULTS)[0]).toMatchObject({
      channel: Channel.RELIABLE_ORDERED,
      payload: { g: 7, why: 'finished', w: ['0', '2'], hold: 240 },
    });
    // And it stops: no more ticks, no inputs taken.
    expect(kit.ticker.armed).toBe(false);
    expect(kit.transport.listenerCount).toBe(0);
  });

  it('answers false, sending nothing, once the round is over or stopped', () => {
    const timedOut = startHost({ roundDuration: 0.05 });
    timedOut.ticks(5);
    expect(timedOut.ended).toHaveLength(1);
    const sent = timedOut.transport.sent.length;
    expect(timedOut.host.endRound()).toBe(false);
    expect(timedOut.ended).toHaveLength(1);
    expect(timedOut.transport.sent).toHaveLength(sent);

    const stopped = startHost();
    stopped.host.stop('room closed');
    expect(stopped.host.endRound()).toBe(false);
    expect(stopped.ended).toEqual([]);
  });

  it('ends a round that has not started ticking yet (during the game’s first moments) with everyone tied', () => {
    const kit = startHost();
    expect(kit.host.endRound()).toBe(true);
    expect(kit.ended[0]).toMatchObject({ reason: 'finished', winners: ['0', '1', '2'] });
    expect(kit.ended[0]?.scores.map((s) => s.score)).toEqual([0, 0, 0]);
  });
});
