import { describe, expect, it } from 'vitest';
import { GameClient } from '../../../main/game/gameClient';
import { GameHost } from '../../../main/game/host/gameHost';
import { LocalGameClient } from '../../../main/game/localGameClient';
import type { GameLink } from '../../../main/game/gameLink';
import { ClientView } from '../../../shared/games/tag/client/clientView';
import type { PlayerInput } from '../../../shared/games/tag/types';
import type { GameSnapshot } from '../../../shared/games/tag/wire/snapshot';
import { ManualScheduler } from '../../support/manualScheduler';
import { seededRandom } from '../../support/seededRandom';
import { OPEN_ARENA, OPEN_TAG, placing } from './hostKit';
import { VirtualGameLink } from './virtualLink';

/** One CSS pixel of a 960-pixel-wide arena, in arena units. */
const ONE_PIXEL = 1600 / 960;
const FRAME_MS = 1000 / 60;

/**
 * The host's player and a guest's, each a renderer's view over its GameLink (the host's in process, the guest's over a
 * 0.3 ms virtual LAN), the renderer-to-backend hop 0.6 ms each way; display frames at 60 Hz from `phaseMs`. After a
 * second both press "right" at once; returns, per side, the frames (from the first one that read the key) until its
 * own circle has moved one pixel.
 */
function framesToOnePixel(phaseMs: number): { host: number; guest: number } {
  const scheduler = new ManualScheduler(0);
  const now = () => scheduler.now() / 1000;
  const net = new VirtualGameLink(scheduler, { latencyMs: 0.3, jitterMs: 0, loss: 0 }, seededRandom(1));
  const ipc = (f: () => void) => scheduler.setTimer(f, 0.6);
  const game = new GameHost({
    game: OPEN_TAG,
    transport: net.host,
    players: [
      { id: 0, name: 'Hana', colour: '#ff5577' },
      { id: 1, name: 'Gus', colour: '#22cc88' },
    ],
    onRoundEnd: () => undefined,
    scheduler,
    seed: 1,
    prepare: placing({ '0': { x: 400, y: 300 }, '1': { x: 1200, y: 600 } }),
  });
  const sides = (
    [
      ['host', new LocalGameClient<PlayerInput, GameSnapshot>(game)],
      ['guest', new GameClient({ game: OPEN_TAG, transport: net.guest(1), playerId: '1' })],
    ] as const
  ).map(([name, link]: readonly [string, GameLink<PlayerInput, GameSnapshot>]) => {
    const view = new ClientView({ playerId: link.playerId, arena: OPEN_ARENA, interpolationDelay: 'adaptive' });
    link.onSnapshot((s) => ipc(() => view.applySnapshot(s, now())));
    return { name, link, view, rest: undefined as number | undefined, frames: -1, done: false };
  });
  game.start();
  let pressed = false;
  const frame = () => {
    for (const side of sides) {
      const t = now();
      const inputs = side.view.advance(t, { moveX: pressed ? 1 : 0, moveY: 0, tag: false });
      if (inputs.length > 0) ipc(() => side.link.sendInputs(inputs, side.view.interpolationDelay));
      const self = side.view.sample(t).players.find((p) => p.self);
      if (self === undefined || side.done) continue;
      if (!pressed) side.rest = self.x;
      else {
        side.frames += 1;
        side.done = Math.abs(self.x - side.rest!) >= ONE_PIXEL;
      }
    }
  };
  scheduler.setTimer(() => scheduler.setRepeating(frame, FRAME_MS), phaseMs);
  scheduler.advance(1000);
  pressed = true;
  scheduler.advance(200);
  game.stop();
  const [host, guest] = sides;
  expect(host!.done && guest!.done).toBe(true);
  return { host: host!.frames, guest: guest!.frames };
}

describe("the host's own motion", () => {
  it('shows on its own screen as soon as a guest’s does, the frame after the one that read the key, whatever the phase', () => {
    for (let phase = 0; phase < FRAME_MS; phase += 1.3) {
      expect(framesToOnePixel(phase), `frames from ${phase.toFixed(1)} ms`).toEqual({ host: 1, guest: 1 });
    }
  });
});
