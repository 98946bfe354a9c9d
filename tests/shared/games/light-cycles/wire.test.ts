import { describe, expect, it } from 'vitest';
import { BinaryTag, roomSerializer } from '../../../../main/net/codec/index';
import { compactJsonSerializer, SerializationError } from '../../../../main/net/index';
import { GameMessage } from '../../../../shared/game/gameProtocol';
import { inputPayloadParser } from '../../../../shared/game/gameSchemas';
import { cycleInputCodec } from '../../../../shared/games/light-cycles/input';
import { lightCyclesGame } from '../../../../shared/games/light-cycles/lightCyclesGame';
import { parseSnapshot } from '../../../../shared/games/light-cycles/snapshot';
import { GAMES } from '../../../../shared/games/registry';
import { ride } from './cyclesKit';

const serializer = roomSerializer(GAMES.list());
const viaJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

/** A mid-round `game.snapshot` of `players` riders who have turned a few times, as the host sends it. */
function snapshotPayload(players: number, idLength = 1): Record<string, unknown> {
  let state = {
    ...lightCyclesGame.create({
      players: Array.from({ length: players }, (_, i) => ({
        id: String(i).padStart(idLength, '9'),
        name: `P${i}`,
        colour: '#ffffff',
      })),
      seed: players,
      roundDuration: 90,
    }),
    countdown: 0,
  };
  const ids = state.cycles.map((c) => c.id);
  // Everyone rides a staircase (right, then left, every other move): more corners than one snapshot repeats.
  for (let m = 0; m < 30 && state.phase === 'playing'; m++) {
    const turn = m % 4 === 1 ? 1 : m % 4 === 3 ? 3 : 0;
    const turns = turn === 0 ? {} : Object.fromEntries(state.cycles.map((c) => [c.id, ((c.heading + turn) % 4) as 0]));
    state = ride(state, 1, { 0: turns }).state;
  }
  const acks = new Map(ids.map((id, i) => [id, 100 + i] as const));
  return { ...lightCyclesGame.snapshot.of(state, acks), g: 321 };
}

const inputPayload = (sequence: number) => ({
  g: 321,
  d: 0.1,
  i: [-1, 0, 1, 2, 3].map((turn, k) => [sequence + k, turn]),
});

describe('light cycles on the room codec', () => {
  it.each([2, 8])('schema-encodes a %i-rider snapshot and delivers exactly what JSON would', (players) => {
    const payload = snapshotPayload(players);
    expect((payload.p as unknown[][]).some((c) => (c[9] as number) > 6)).toBe(true);
    const body = serializer.serialize(GameMessage.SNAPSHOT, payload);
    expect(body[0]).not.toBe(BinaryTag.JSON);
    const decoded = serializer.deserialize(body);
    expect(decoded).toStrictEqual({ type: GameMessage.SNAPSHOT, payload: viaJson(payload) });
    expect(parseSnapshot(decoded.payload)).toBeDefined();
    expect(body.length).toBeLessThan(compactJsonSerializer.serialize(GameMessage.SNAPSHOT, payload).length / 2);
  });

  it('keeps 8 riders with 8-character ids inside one 1200-byte datagram, in binary and in JSON', () => {
    const payload = snapshotPayload(8, 8);
    expect(serializer.serialize(GameMessage.SNAPSHOT, payload).length).toBeLessThan(400);
    expect(compactJsonSerializer.serialize(GameMessage.SNAPSHOT, payload).length).toBeLessThan(1150);
  });

  it('schema-encodes game.input (every turn, none included), which the host then validates as before', () => {
    for (const sequence of [1, 77, 2 ** 24 - 5]) {
      const payload = inputPayload(sequence);
      const body = serializer.serialize(GameMessage.INPUT, payload);
      expect(body[0]).not.toBe(BinaryTag.JSON);
      expect(body.length).toBe(1 + 2 + 8 + 1 + 5 * 8);
      const decoded = serializer.deserialize(body);
      expect(decoded).toStrictEqual({ type: GameMessage.INPUT, payload });
      expect(inputPayloadParser(cycleInputCodec)(decoded.payload)).toStrictEqual(payload);
    }
  });

  it.each([
    ['a turn of 4', { g: 1, d: 0.1, i: [[1, 4]] }],
    ['a fractional turn', { g: 1, d: 0.1, i: [[1, 0.5]] }],
    ['a three-element input', { g: 1, d: 0.1, i: [[1, 0, 0]] }],
  ])('sends an input with %s as JSON, which the host refuses', (_what, payload) => {
    const body = serializer.serialize(GameMessage.INPUT, payload);
    expect(body[0]).toBe(BinaryTag.JSON);
    const decoded = serializer.deserialize(body);
    expect(decoded.payload).toStrictEqual(payload);
    expect(inputPayloadParser(cycleInputCodec)(decoded.payload)).toBeUndefined();
  });

  it('sends an input with a key the format does not name as JSON', () => {
    const payload = { g: 1, d: 0.1, i: [[1, 0]], x: 1 };
    const body = serializer.serialize(GameMessage.INPUT, payload);
    expect(body[0]).toBe(BinaryTag.JSON);
    expect(serializer.deserialize(body).payload).toStrictEqual(payload);
  });

  it.each([
    ['an unrounded survival time', (p: Record<string, unknown>) => ((p.p as unknown[][])[0]![5] = 1.234)],
    ['an odd corner list', (p: Record<string, unknown>) => ((p.p as unknown[][])[0]![10] = [1])],
    ['a cell beyond a byte', (p: Record<string, unknown>) => ((p.p as unknown[][])[0]![1] = 300)],
    ['an unknown phase', (p: Record<string, unknown>) => (p.ph = 'paused')],
  ])('sends a snapshot with %s as JSON, unchanged', (_what, spoil) => {
    const payload = snapshotPayload(3);
    spoil(payload);
    const body = serializer.serialize(GameMessage.SNAPSHOT, payload);
    expect(body[0]).toBe(BinaryTag.JSON);
    expect(serializer.deserialize(body).payload).toStrictEqual(viaJson(payload));
  });

  it('refuses every truncation and a trailing byte of real bodies with a SerializationError, never anything else', () => {
    for (const body of [
      serializer.serialize(GameMessage.SNAPSHOT, snapshotPayload(4)),
      serializer.serialize(GameMessage.INPUT, inputPayload(9)),
    ]) {
      for (let cut = 0; cut < body.length; cut++) {
        expect(() => serializer.deserialize(body.subarray(0, cut))).toThrow(SerializationError);
      }
      expect(() => serializer.deserialize(Uint8Array.from([...body, 0]))).toThrow(SerializationError);
    }
  });

  it('refuses a turn past 3 and a phase past the list', () => {
    const input = serializer.serialize(GameMessage.INPUT, inputPayload(9)).slice();
    input[input.length - 4] = 4;
    expect(() => serializer.deserialize(input)).toThrow(SerializationError);
    const snapshot = serializer.serialize(GameMessage.SNAPSHOT, snapshotPayload(2)).slice();
    // tag(1) ‖ g u16 ‖ k u32 ‖ t u32 ‖ ph u8
    snapshot[1 + 2 + 4 + 4] = 3;
    expect(() => serializer.deserialize(snapshot)).toThrow(SerializationError);
  });

  it('refuses random bytes after its tags with a SerializationError or decodes them to something parse rejects', () => {
    let seed = 7;
    const next = () => (seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0);
    const body = serializer.serialize(GameMessage.SNAPSHOT, snapshotPayload(3));
    for (let n = 0; n < 300; n++) {
      const mutated = body.slice();
      for (let k = 0; k < 3; k++) mutated[1 + (next() % (mutated.length - 1))] = next() & 0xff;
      try {
        const decoded = serializer.deserialize(mutated);
        // What decodes is a well-formed message; the game's parse is the last word on its values.
        expect(decoded.type).toBe(GameMessage.SNAPSHOT);
        parseSnapshot(decoded.payload);
      } catch (error) {
        expect(error).toBeInstanceOf(SerializationError);
      }
    }
  });
});
