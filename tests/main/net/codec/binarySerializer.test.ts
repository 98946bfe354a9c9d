import { describe, expect, it } from 'vitest';
import { binarySerializer, BinaryTag, defineSchema, FieldType } from '../../../../main/net/codec';
import { compactJsonSerializer, SerializationError } from '../../../../main/net/v1/serialization';
import { allTypesSchema, sampleAllTypes } from './allTypesSchema';

const chat = defineSchema({ text: FieldType.string });
const move = defineSchema({ x: FieldType.i32, y: FieldType.i32 });
const all = allTypesSchema;

const make = (name = 'game-v1') => binarySerializer({ schemas: { move, chat, all }, name });

describe('binarySerializer', () => {
  it('carries its name and tags registered types 1..n in sorted type-name order', () => {
    const serializer = make();
    expect(serializer.name).toBe('game-v1');
    expect(serializer.serialize('all', sampleAllTypes())[0]).toBe(1);
    expect([...serializer.serialize('chat', { text: 'hi' })]).toEqual([2, 2, 0x68, 0x69]);
    expect([...serializer.serialize('move', { x: 1, y: -1 })]).toEqual([3, 1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff]);
  });

  it('round-trips registered types', () => {
    const serializer = make();
    for (const [type, payload] of [
      ['all', sampleAllTypes()],
      ['chat', { text: '日本語' }],
      ['move', { x: -5, y: 7 }],
    ] as const) {
      expect(serializer.deserialize(serializer.serialize(type, payload))).toEqual({ type, payload });
    }
  });

  it('sends types without a schema as tag 0 + compact JSON, and decodes them', () => {
    const serializer = make();
    const body = serializer.serialize('lobby.state', { players: [1, 2], host: 'ann' });
    expect(body[0]).toBe(BinaryTag.JSON);
    expect(Buffer.from(body.subarray(1)).toString()).toBe(
      '{"type":"lobby.state","payload":{"players":[1,2],"host":"ann"}}',
    );
    expect(serializer.deserialize(body)).toEqual({ type: 'lobby.state', payload: { players: [1, 2], host: 'ann' } });
    expect(() => serializer.serialize('other', [1])).toThrow(SerializationError);
  });

  it('agrees with another serializer built from the same schemas in any order', () => {
    const a = make();
    const b = binarySerializer({ schemas: { all, chat, move }, name: 'game-v1' });
    for (const type of ['all', 'chat', 'move'] as const) {
      const payload = { all: sampleAllTypes(), chat: { text: 'x' }, move: { x: 3, y: 4 } }[type];
      expect(b.serialize(type, payload)).toEqual(a.serialize(type, payload));
      expect(b.deserialize(a.serialize(type, payload))).toEqual({ type, payload });
    }
  });

  it('decodes differently with different schema sets, which is why the name must change with them', () => {
    const fewer = binarySerializer({ schemas: { chat, move }, name: 'game-v0' });
    const body = make().serialize('chat', { text: 'hi' });
    expect(() => fewer.deserialize(body)).toThrow(SerializationError); // tag 2 is "move" there
  });

  it('names the type and field when a payload does not fit its schema', () => {
    expect(() => make().serialize('move', { x: 1, y: 2 ** 31 })).toThrow(
      /^payload of "move" does not fit its schema at y: expected i32/,
    );
    expect(() => make().serialize('chat', null)).toThrow(/payload of "chat" .*expected an object, got null/);
  });

  it.each([
    ['empty', new Uint8Array(0), /empty body/],
    ['unknown tag', new Uint8Array([4]), /unknown body tag 4/],
    ['tag 255', new Uint8Array([255, 1, 2]), /unknown body tag 255/],
    ['bad JSON after tag 0', new Uint8Array([0, 0x7b]), /not UTF-8 JSON/],
    ['bad schema body', new Uint8Array([3, 1, 2]), /bad "move" body at x: truncated/],
    ['trailing bytes', new Uint8Array([2, 0, 9]), /bad "chat" body: 1 trailing byte/],
  ])('rejects a body that is %s', (_name, body, message) => {
    expect(() => make().deserialize(body)).toThrow(SerializationError);
    expect(() => make().deserialize(body)).toThrow(message);
  });

  it('rejects a schema type arriving as JSON, so receivers can rely on its shape', () => {
    const json = compactJsonSerializer.serialize('move', { x: 'not a number' });
    const body = new Uint8Array([0, ...json]);
    expect(() => make().deserialize(body)).toThrow(/"move" arrived as JSON but has a schema/);
  });

  it('validates its options', () => {
    for (const name of ['', 'json', 'has space', 'x'.repeat(65), 'é']) {
      expect(() => binarySerializer({ schemas: {}, name })).toThrow(TypeError);
    }
    expect(binarySerializer({ schemas: {}, name: 'A.b_c-1' }).name).toBe('A.b_c-1');
    const many = Object.fromEntries(Array.from({ length: 256 }, (_, i) => [`t${i}`, chat]));
    expect(() => binarySerializer({ schemas: many, name: 'many' })).toThrow(/at most 255/);
    const { t255: _dropped, ...most } = many;
    const max = binarySerializer({ schemas: most, name: 'max' });
    expect(max.serialize('t99', { text: '' })[0]).toBe(255); // "t99" sorts last
    expect(max.deserialize(max.serialize('t98', { text: '' }))).toEqual({ type: 't98', payload: { text: '' } });
    expect(() => binarySerializer({ schemas: { a: {} as never }, name: 'bad' })).toThrow(/"a" is not a schema/);
  });

  it('survives a payload getter that serializes again in the middle of a message', () => {
    const serializer = make();
    let inner: Uint8Array | undefined;
    const payload = {
      get text() {
        inner = serializer.serialize('move', { x: 9, y: 9 });
        return 'outer';
      },
    };
    const outer = serializer.serialize('chat', payload);
    expect(serializer.deserialize(outer)).toEqual({ type: 'chat', payload: { text: 'outer' } });
    expect(serializer.deserialize(inner!)).toEqual({ type: 'move', payload: { x: 9, y: 9 } });
  });
});
