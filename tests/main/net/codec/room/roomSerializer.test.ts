import { describe, expect, it } from 'vitest';
import { BinaryTag } from '../../../../../main/net/codec/index';
import { compactJsonSerializer, SerializationError } from '../../../../../main/net/index';
import { ROOM_SERIALIZER_PREFIX, roomSerializer } from '../../../../../main/net/codec/index';
import { GAMES } from '../../../../../shared/games/registry';
import { GameMessage } from '../../../../../shared/game/gameProtocol';
import { parseSnapshot } from '../../../../../shared/games/tag/wire/snapshot';
import { tagInputCodec } from '../../../../../shared/games/tag/wire/tagInput';
import { inputPayloadParser } from '../../../../../shared/game/gameSchemas';
import { tagGame } from '../../../../../shared/games/tag/tagGame';
import { tagWire } from '../../../../../shared/games/tag/wire/tagWire';
import { pressRace } from '../../../game/host/pressRace';
import { inputPayload, snapshotPayload, viaJson } from './roomPayloads';

const serializer = roomSerializer(GAMES.list());
const roundTrip = (type: string, payload: unknown) => serializer.deserialize(serializer.serialize(type, payload));

describe('roomSerializer (built from the registered games)', () => {
  it('is offered by a name that fingerprints the games and their formats, not json', () => {
    expect(serializer.name).toMatch(new RegExp(`^${ROOM_SERIALIZER_PREFIX.replace('.', '\\.')}-[0-9a-f]{8}$`));
    expect(roomSerializer([...GAMES.list()].reverse()).name).toBe(serializer.name);
    expect(roomSerializer([tagGame]).name).not.toBe(roomSerializer([tagGame, pressRace]).name);
    expect(roomSerializer([{ ...tagGame, wire: { ...tagWire, version: tagWire.version + 1 } }]).name).not.toBe(
      roomSerializer([tagGame]).name,
    );
  });

  it('carries a game that declares a JSON wire as JSON, and a tag message beside it in binary', () => {
    const both = roomSerializer([pressRace, tagGame]);
    const race = { g: 3, d: 0.1, i: [[1, 1]] };
    const raceBody = both.serialize(GameMessage.INPUT, race);
    expect(raceBody[0]).toBe(BinaryTag.JSON);
    expect(both.deserialize(raceBody)).toStrictEqual({ type: GameMessage.INPUT, payload: race });
    expect(both.serialize(GameMessage.INPUT, inputPayload(9))[0]).not.toBe(BinaryTag.JSON);
    expect(roomSerializer([pressRace]).serialize(GameMessage.INPUT, inputPayload(9))[0]).toBe(BinaryTag.JSON);
  });

  it.each([2, 8, 16])('schema-encodes a %i-player snapshot and delivers exactly what JSON would', (players) => {
    const payload = snapshotPayload(players);
    const body = serializer.serialize(GameMessage.SNAPSHOT, payload);
    expect(body[0]).not.toBe(BinaryTag.JSON);
    const decoded = serializer.deserialize(body);
    expect(decoded).toStrictEqual({ type: GameMessage.SNAPSHOT, payload: viaJson(payload) });
    expect(parseSnapshot(decoded.payload)).toBeDefined();
    expect(body.length).toBeLessThan(compactJsonSerializer.serialize(GameMessage.SNAPSHOT, payload).length);
  });

  it('keeps a 16-player snapshot with 8-character ids and a countdown well inside one 1200-byte datagram', () => {
    const payload = snapshotPayload(16, 2) as { p: unknown[][]; c?: number };
    expect(payload.c).toBeGreaterThan(0);
    payload.p.forEach((p, i) => (p[0] = `${i}`.padStart(8, '9')));
    const body = serializer.serialize(GameMessage.SNAPSHOT, payload);
    expect(body[0]).not.toBe(BinaryTag.JSON);
    expect(body.length).toBeLessThanOrEqual(700);
    expect(serializer.deserialize(body).payload).toStrictEqual(viaJson(payload));
  });

  it('schema-encodes game.input, which the host then validates as before', () => {
    for (const sequence of [1, 3, 5, 600, 2 ** 24 - 1]) {
      const payload = inputPayload(sequence);
      const body = serializer.serialize(GameMessage.INPUT, payload);
      expect(body[0]).not.toBe(BinaryTag.JSON);
      const decoded = serializer.deserialize(body);
      expect(decoded).toStrictEqual({ type: GameMessage.INPUT, payload: viaJson(payload) });
      expect(inputPayloadParser(tagInputCodec)(decoded.payload)).toStrictEqual(viaJson(payload));
    }
  });

  it('turns -0 into 0 as JSON does', () => {
    const payload = { g: 1, d: -0, i: [[1, -0, 0.5, 0]] };
    expect(serializer.serialize(GameMessage.INPUT, payload)[0]).not.toBe(BinaryTag.JSON);
    const decoded = roundTrip(GameMessage.INPUT, payload).payload as { d: number; i: number[][] };
    expect(Object.is(decoded.d, 0)).toBe(true);
    expect(Object.is(decoded.i[0]![1], 0)).toBe(true);
  });

  it.each([
    ['an unrounded position', (p: Record<string, unknown>) => ((p.p as unknown[][])[0]![1] = 1.234)],
    ['an extra key', (p: Record<string, unknown>) => (p.extra = 1)],
    ['a phase tag does not have', (p: Record<string, unknown>) => (p.ph = 'paused')],
    ['a fractional flag', (p: Record<string, unknown>) => ((p.p as unknown[][])[0]![5] = 0.5)],
    ['an ack below -1', (p: Record<string, unknown>) => ((p.p as unknown[][])[0]![8] = -2)],
    ['a lone surrogate in an id', (p: Record<string, unknown>) => ((p.p as unknown[][])[0]![0] = '\ud800')],
    ['a game id over 16 bits', (p: Record<string, unknown>) => (p.g = 70_000)],
    ['a player as an object', (p: Record<string, unknown>) => ((p.p as unknown[])[0] = { id: '0' })],
  ])('sends a snapshot with %s as JSON, unchanged', (_what, spoil) => {
    const payload = snapshotPayload(4);
    spoil(payload);
    const body = serializer.serialize(GameMessage.SNAPSHOT, payload);
    expect(body[0]).toBe(BinaryTag.JSON);
    expect(serializer.deserialize(body)).toStrictEqual({ type: GameMessage.SNAPSHOT, payload: viaJson(payload) });
  });

  it.each([
    ['NaN movement', { g: 1, d: 0.1, i: [[1, Number.NaN, 0, 0]] }],
    ['an infinite delay', { g: 1, d: Number.POSITIVE_INFINITY, i: [[1, 0, 0, 0]] }],
    ['a boolean tag', { g: 1, d: 0.1, i: [[1, 0, 0, true]] }],
    ['a negative sequence', { g: 1, d: 0.1, i: [[-1, 0, 0, 0]] }],
    ['a three-element input', { g: 1, d: 0.1, i: [[1, 0, 0]] }],
    ['no inputs list', { g: 1, d: 0.1 }],
    ['a string game id', { g: '1', d: 0.1, i: [[1, 0, 0, 0]] }],
  ])('sends an input with %s as JSON, as a JSON link would deliver it', (_what, payload) => {
    const body = serializer.serialize(GameMessage.INPUT, payload);
    expect(body[0]).toBe(BinaryTag.JSON);
    const decoded = serializer.deserialize(body);
    expect(decoded).toStrictEqual({ type: GameMessage.INPUT, payload: viaJson(payload) });
    expect(inputPayloadParser(tagInputCodec)(decoded.payload)).toBeUndefined();
  });

  it('carries every other message type as compact JSON', () => {
    const payload = { g: 1, part: 0, parts: 1, p: [['0', 'Ann', '#fff']] };
    const body = serializer.serialize(GameMessage.ROSTER, payload);
    expect(body[0]).toBe(BinaryTag.JSON);
    expect([...body.subarray(1)]).toEqual([...compactJsonSerializer.serialize(GameMessage.ROSTER, payload)]);
    expect(roundTrip(GameMessage.ROSTER, payload)).toStrictEqual({ type: GameMessage.ROSTER, payload });
  });

  it('refuses to send a schema type under its internal name', () => {
    expect(() => serializer.serialize(`${GameMessage.INPUT}/tag`, inputPayload(1))).toThrow(SerializationError);
  });

  it('agrees byte for byte with another instance', () => {
    const other = roomSerializer(GAMES.list());
    const payload = snapshotPayload(8);
    expect([...other.serialize(GameMessage.SNAPSHOT, payload)]).toEqual([
      ...serializer.serialize(GameMessage.SNAPSHOT, payload),
    ]);
  });
});
