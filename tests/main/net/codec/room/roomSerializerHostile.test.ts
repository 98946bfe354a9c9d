import { describe, expect, it } from 'vitest';
import { BinaryTag } from '../../../../../main/net/codec/index';
import { compactJsonSerializer, SerializationError } from '../../../../../main/net/index';
import { roomSerializer } from '../../../../../main/net/codec/index';
import { GAMES } from '../../../../../shared/games/registry';
import { GameMessage } from '../../../../../shared/game/gameProtocol';
import { startHost } from '../../../game/hostKit';
import { inputPayload, snapshotPayload } from './roomPayloads';

const serializer = roomSerializer(GAMES.list());
const inputBody = () => serializer.serialize(GameMessage.INPUT, inputPayload(9));
const snapshotBody = () => serializer.serialize(GameMessage.SNAPSHOT, snapshotPayload(4));

/** A copy of `body` with `edit` applied to its bytes. */
function edited(body: Uint8Array, edit: (bytes: Uint8Array, view: DataView) => void): Uint8Array {
  const copy = body.slice();
  edit(copy, new DataView(copy.buffer));
  return copy;
}

// Layouts: tag(1) ‖ g u16 ‖ d f64 ‖ count ‖ [s u32, x f64, y f64, t u8]…; tag(1) ‖ g u16 ‖ k u32 ‖ t u32 ‖ ph u8 ‖ …
const INPUT_D = 3;
const INPUT_FIRST_X = 3 + 8 + 1 + 4;
const INPUT_FIRST_TAG = INPUT_FIRST_X + 16;
const SNAPSHOT_PHASE = 1 + 2 + 4 + 4;

describe('roomSerializer against hostile bodies', () => {
  it.each([
    ['an empty body', () => new Uint8Array(0)],
    ['a truncated input', () => inputBody().subarray(0, inputBody().length - 1)],
    ['an input cut after its tag', () => inputBody().subarray(0, 1)],
    ['a truncated snapshot', () => snapshotBody().subarray(0, snapshotBody().length - 3)],
    ['an input with a trailing byte', () => Uint8Array.from([...inputBody(), 0])],
    ['a snapshot with trailing bytes', () => Uint8Array.from([...snapshotBody(), 1, 2])],
    ['a NaN delay', () => edited(inputBody(), (_, v) => v.setFloat64(INPUT_D, Number.NaN, true))],
    ['an infinite move', () => edited(inputBody(), (_, v) => v.setFloat64(INPUT_FIRST_X, -Infinity, true))],
    ['a tag byte of 2', () => edited(inputBody(), (b) => (b[INPUT_FIRST_TAG] = 2))],
    ['an input count beyond the body', () => edited(inputBody(), (b) => (b[INPUT_D + 8] = 100))],
    ['a phase past the list', () => edited(snapshotBody(), (b) => (b[SNAPSHOT_PHASE] = 3))],
    ['an unknown body tag', () => edited(inputBody(), (b) => (b[0] = 3))],
    ['the largest body tag', () => edited(inputBody(), (b) => (b[0] = 255))],
    [
      'a schema type smuggled in as JSON',
      () => Uint8Array.from([BinaryTag.JSON, ...compactJsonSerializer.serialize('game.input/tag', { g: 1 })]),
    ],
    ['JSON garbage', () => Uint8Array.from([BinaryTag.JSON, 0x7b, 0x7b])],
  ])('refuses %s with a SerializationError', (_what, body) => {
    expect(() => serializer.deserialize(body())).toThrow(SerializationError);
  });

  it('refuses every truncation of a real input and snapshot body, never anything else', () => {
    for (const body of [inputBody(), snapshotBody()]) {
      for (let cut = 0; cut < body.length; cut++) {
        expect(() => serializer.deserialize(body.subarray(0, cut))).toThrow(SerializationError);
      }
    }
  });

  it.each([
    ['sequence 0', { i: [[0, 0, 0, 0]] }],
    ['a sequence past MAX_INPUT_SEQUENCE', { i: [[2 ** 24, 0, 0, 0]] }],
    ['the largest u32 sequence', { i: [[2 ** 32 - 1, 0, 0, 0]] }],
    ['seventeen inputs', { i: Array.from({ length: 17 }, (_, k) => [k + 1, 0, 0, 0]) }],
    ['no inputs', { i: [] }],
    ['a negative delay', { d: -0.5 }],
    ['game id 0', { g: 0 }],
  ])('a schema-valid input with %s reaches the host, which drops and counts it', (_what, patch) => {
    const kit = startHost();
    const body = serializer.serialize(GameMessage.INPUT, { g: 7, d: 0.1, i: [[1, 0, 0, 0]], ...patch });
    expect(body[0]).not.toBe(BinaryTag.JSON);
    kit.transport.deliver(1, GameMessage.INPUT, serializer.deserialize(body).payload);
    kit.ticks(1);
    expect(kit.host.stats().inputs).toMatchObject({ messages: 1, invalid: 1, accepted: 0 });
  });

  it('a good schema-encoded input drives the host like its JSON twin', () => {
    const kit = startHost();
    const body = serializer.serialize(GameMessage.INPUT, { g: 7, d: 0.1, i: [[1, 1, 0, 0]] });
    kit.transport.deliver(1, GameMessage.INPUT, serializer.deserialize(body).payload);
    kit.ticks(1);
    expect(kit.host.stats().inputs).toMatchObject({ messages: 1, invalid: 0, accepted: 1 });
  });
});
