import { GameHost } from '../main/game/host/gameHost';
import type { HostTransport, TransportPeer } from '../main/net/index';
import { encodeBody } from '../main/net/v1/connection';
import type { Serializer } from '../main/net/v1/serialization';
import { roomSerializer } from '../main/net/codec/index';
import { createGame } from '../shared/games/tag/createGame';
import { GameMessage, INPUT_REDUNDANCY } from '../shared/game/gameProtocol';
import { tagGame } from '../shared/games/tag/tagGame';
import { DEFAULT_ARENA } from '../shared/games/tag/rules';
import { stepWithEvents } from '../shared/games/tag/step';
import type { GameState, PlayerInput } from '../shared/games/tag/types';
import type { BenchResult } from './benchResult';
import { roundsRow } from './rounds';

const WARMUP_TICKS = 300;
const MEASURED_TICKS = 1_200;
const RUNS = 7;
const PLAYER_COUNTS = [2, 8, 16] as const;

type Handler = (peer: TransportPeer, payload: Record<string, unknown>) => void;

/**
 * The transport's CPU work without sockets: broadcasts are serialized once (as Server.broadcast does, with its
 * 1200-byte check), and guest messages arrive as bodies that are deserialized. The codec is the one a real round
 * between LAN Party apps negotiates on the lobby's native links (lobbyTransportOptions): the room serializer, which
 * schema-encodes `game.input` and `game.snapshot` (v1 peers would get the reference JSON instead).
 */
class InProcessTransport implements HostTransport {
  readonly serializer = roomSerializer([tagGame]);
  private readonly handlers = new Map<string, Handler>();

  onMessage(type: string, callback: Handler): () => void {
    this.handlers.set(type, callback);
    return () => this.handlers.delete(type);
  }

  onDisconnect(): () => void {
    return () => undefined;
  }

  broadcast(type: string, payload: object): boolean {
    encodeBody(this.serializer, type, payload);
    return true;
  }

  getRtt(): number {
    return 0.02;
  }

  getPeers(): [] {
    return [];
  }

  deliver(peerId: number, body: Uint8Array): void {
    const message = this.serializer.deserialize(body);
    this.handlers.get(message.type)?.({ id: peerId }, message.payload);
  }
}

/** Steering that wanders around the arena, different per player and tick. */
function steer(player: number, sequence: number): PlayerInput {
  const a = sequence / 40 + player;
  return { sequence, moveX: Math.cos(a), moveY: Math.sin(a * 1.3), tag: sequence % 97 === player };
}

/** One guest's `game.input` body for `sequence`, with the redundant copies a real client sends. */
function inputBody(serializer: Serializer, gameId: number, player: number, sequence: number): Uint8Array {
  const first = Math.max(1, sequence - INPUT_REDUNDANCY + 1);
  const inputs = Array.from({ length: sequence - first + 1 }, (_, i) => steer(player, first + i));
  const payload = { g: gameId, d: 0.1, i: inputs.map((x) => [x.sequence, x.moveX, x.moveY, x.tag ? 1 : 0]) };
  return encodeBody(serializer, GameMessage.INPUT, payload);
}

/** µs per player per tick of the full host: inputs received and validated, the tick, histories, snapshots. */
function hostCost(players: number): number {
  const transport = new InProcessTransport();
  const lobby = Array.from({ length: players }, (_, id) => ({ id, name: `Player ${id}`, colour: '#22cc88' }));
  const host = new GameHost({
    game: tagGame,
    transport,
    players: lobby,
    onRoundEnd: () => undefined,
    gameId: 1,
    seed: players,
    roundDuration: 600,
    scheduler: { now: () => 0, setTimer: () => undefined, setRepeating: () => undefined, clearTimer: () => undefined },
  });
  host.start();
  // Bodies are encoded up front: the client's serialization is not host work.
  const bodies = Array.from({ length: WARMUP_TICKS + MEASURED_TICKS }, (_, t) =>
    Array.from({ length: players }, (_, p) =>
      p === 0 ? undefined : inputBody(transport.serializer, host.gameId, p, t + 1),
    ),
  );
  const run = (from: number, to: number) => {
    for (let t = from; t < to; t += 1) {
      host.submitLocalInputs([steer(0, t + 1)], 0.03);
      bodies[t]!.forEach((body, p) => body && transport.deliver(p, body));
      host.tick();
    }
  };
  run(0, WARMUP_TICKS);
  const start = performance.now();
  run(WARMUP_TICKS, WARMUP_TICKS + MEASURED_TICKS);
  const elapsed = performance.now() - start;
  host.stop();
  return (elapsed * 1000) / MEASURED_TICKS / players;
}

/** µs per player per tick of the pure rules alone (stepWithEvents with the same inputs): the baseline. */
function stepCost(players: number): number {
  let state: GameState = createGame({
    players: Array.from({ length: players }, (_, id) => ({ id: String(id), name: `Player ${id}` })),
    seed: players,
    roundDuration: 600,
    arena: DEFAULT_ARENA,
  });
  const run = (from: number, to: number) => {
    for (let t = from; t < to; t += 1) {
      const inputs = new Map(Array.from({ length: players }, (_, p) => [String(p), steer(p, t + 1)] as const));
      state = stepWithEvents(state, inputs, 1 / 60).state;
    }
  };
  run(0, WARMUP_TICKS);
  const start = performance.now();
  run(WARMUP_TICKS, WARMUP_TICKS + MEASURED_TICKS);
  return ((performance.now() - start) * 1000) / MEASURED_TICKS / players;
}

/**
 * RUNS rounds of each, host and step alternating (after one of each unmeasured: the 2-player case comes first and
 * would otherwise carry the compilation), so load from other processes on the shared machine falls on both alike.
 */
function pairs(players: number): { host: number[]; step: number[] } {
  hostCost(players);
  stepCost(players);
  const host: number[] = [];
  const step: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const hostFirst = run % 2 === 0;
    if (hostFirst) host.push(hostCost(players));
    step.push(stepCost(players));
    if (!hostFirst) host.push(hostCost(players));
  }
  return { host, step };
}

/** The game host's tick cost per player at 2, 8 and 16 players, against the pure step() cost from the same run. */
export async function benchGameHost(): Promise<BenchResult[]> {
  return PLAYER_COUNTS.map((players) => {
    const { host, step } = pairs(players);
    return roundsRow(`game host tick, ${players} players (per player)`, 'µs', host, step, false);
  });
}
