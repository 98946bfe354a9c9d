import { describe, expect, it } from 'vitest';
import { GameHost } from '../../../../main/game/host/gameHost';
import { BinaryTag, roomSerializer } from '../../../../main/net/codec/index';
import { GAME_TICK_DT, GameMessage, type GameResults } from '../../../../shared/game/gameProtocol';
import { CyclesView } from '../../../../shared/games/light-cycles/clientView';
import { createLightCycles } from '../../../../shared/games/light-cycles/lightCyclesGame';
import { parseSnapshot } from '../../../../shared/games/light-cycles/snapshot';
import { GAMES } from '../../../../shared/games/registry';
import { FakeHostTransport, manualTicker } from '../fakeTransports';

// Light cycles on the generic host, with nothing of its own in main/: the guest's inputs and the host's snapshots
// go through the room codec (binary) built from the registry, and the guest draws from its own view.
const GAME = createLightCycles({ width: 20, height: 12, countdown: 0 });
const codec = roomSerializer(GAMES.list());
const overTheWire = (type: string, payload: unknown) => codec.deserialize(codec.serialize(type, payload)).payload;

function start() {
  const transport = new FakeHostTransport();
  const ticker = manualTicker();
  const ended: GameResults[] = [];
  const host = new GameHost({
    game: GAME,
    transport,
    players: [
      { id: 0, name: 'Hana', colour: '#ff5577' },
      { id: 1, name: 'Gus', colour: '#22cc88' },
    ],
    onRoundEnd: (results) => ended.push(results),
    gameId: 9,
    seed: 4,
    scheduler: ticker.scheduler,
  });
  host.start();
  return { host, transport, ticker, ended };
}

describe('light cycles on the generic game host', () => {
  it('takes a guest’s turns through the binary room codec, and ends with the last cycle riding', () => {
    const { host, transport, ticker, ended } = start();
    const guest = new CyclesView('1', 0.1, { width: 20, height: 12 });
    let delivered = 0;
    let now = 0;
    // The guest steers away from every wall by turning clockwise whenever it is three cells from one; the host rides
    // straight on (no inputs), so it meets a wall first.
    for (let tick = 0; tick < 60 * 30 && ended.length === 0; tick++) {
      const snapshots = transport.ofType(GameMessage.SNAPSHOT);
      for (const message of snapshots.slice(delivered)) {
        const snapshot = parseSnapshot(overTheWire(GameMessage.SNAPSHOT, message.payload));
        expect(snapshot).toBeDefined();
        guest.applySnapshot(snapshot!, now);
      }
      delivered = snapshots.length;
      now += GAME_TICK_DT;
      const me = host.state.cycles.find((c) => c.id === '1')!;
      const ahead = [me.y, 20 - 1 - me.x, 12 - 1 - me.y, me.x][me.heading]!;
      const turn = ahead <= 3 ? (((me.heading + 1) % 4) as 0) : -1;
      const inputs = guest.advance(now, { turn });
      if (inputs.length > 0) {
        const payload = { g: host.gameId, d: 0.1, i: inputs.map((input) => GAME.input.toWire(input)) };
        expect(codec.serialize(GameMessage.INPUT, payload)[0]).not.toBe(BinaryTag.JSON);
        transport.deliver(1, GameMessage.INPUT, overTheWire(GameMessage.INPUT, payload));
      }
      ticker.advance(GAME_TICK_DT);
    }
    expect(ended).toHaveLength(1);
    expect(ended[0]).toMatchObject({ reason: 'finished', winners: ['1'] });
    expect(host.stats().inputs).toMatchObject({ invalid: 0 });
    expect(host.stats().snapshotsTooLarge).toBe(0);
    const results = transport.ofType(GameMessage.RESULTS);
    expect(results.at(-1)?.payload).toMatchObject({ g: host.gameId, why: 'finished', w: ['1'] });
    // They rode the same time (the round ends with the crash); the winner is the one still riding.
    expect(ended[0]!.scores.map((s) => s.id)).toEqual(['0', '1']);
    // And the snapshots, like the inputs, really travelled in the game's binary formats.
    const first = transport.ofType(GameMessage.SNAPSHOT)[0]!.payload;
    expect(codec.serialize(GameMessage.SNAPSHOT, first)[0]).not.toBe(BinaryTag.JSON);
  });

  it('drops and counts a guest input in tag’s shape', () => {
    const { host, transport, ticker } = start();
    transport.deliver(1, GameMessage.INPUT, { g: host.gameId, d: 0.1, i: [[1, 0.5, 0, 1]] });
    ticker.advance(GAME_TICK_DT);
    expect(host.stats().inputs).toMatchObject({ messages: 1, invalid: 1, accepted: 0 });
  });
});
