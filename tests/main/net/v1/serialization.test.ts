import { describe, expect, it } from 'vitest';
import vectors from '../../../fixtures/wire.json';
import { compactJsonSerializer, jsonSerializer, SerializationError } from '../../../../main/net/v1/serialization';

const text = (b: Uint8Array) => Buffer.from(b).toString('utf8');
const bytes = (s: string) => new Uint8Array(Buffer.from(s, 'utf8'));

describe('JSON serializer', () => {
  it('matches the reference bytes exactly', () => {
    const ex = vectors.json_serialize_example;
    expect(text(jsonSerializer.serialize(ex.type, ex.payload))).toBe(ex.bytes_utf8);
  });

  it('escapes non-ASCII like Python ensure_ascii, keeping separators out of strings', () => {
    const out = text(jsonSerializer.serialize('chat', { text: 'héllo, "a": 😀', list: [1, 2] }));
    expect(out).toBe('{"type": "chat", "payload": {"text": "h\\u00e9llo, \\"a\\": \\ud83d\\ude00", "list": [1, 2]}}');
    expect(jsonSerializer.deserialize(bytes(out))).toEqual({
      type: 'chat',
      payload: { text: 'héllo, "a": 😀', list: [1, 2] },
    });
  });

  it('compact variant is smaller and decodes the same', () => {
    const a = jsonSerializer.serialize('input', { move: 'left' });
    const b = compactJsonSerializer.serialize('input', { move: 'left' });
    expect(text(b)).toBe('{"type":"input","payload":{"move":"left"}}');
    expect(b.byteLength).toBeLessThan(a.byteLength);
    expect(jsonSerializer.deserialize(b)).toEqual(compactJsonSerializer.deserialize(a));
  });

  it('accepts any valid JSON of the shape, including extra fields and whitespace', () => {
    expect(jsonSerializer.deserialize(bytes(' { "payload" : {} , "type":"x", "extra": 1 } '))).toEqual({
      type: 'x',
      payload: {},
    });
  });

  it.each([
    ['not json', 'hello'],
    ['array', '[1,2]'],
    ['null', 'null'],
    ['missing type', '{"payload":{}}'],
    ['numeric type', '{"type":1,"payload":{}}'],
    ['array payload', '{"type":"a","payload":[]}'],
    ['null payload', '{"type":"a","payload":null}'],
    ['missing payload', '{"type":"a"}'],
  ])('rejects a body that is %s', (_name, body) => {
    expect(() => jsonSerializer.deserialize(bytes(body))).toThrow(SerializationError);
  });

  it('rejects invalid UTF-8', () => {
    expect(() => jsonSerializer.deserialize(new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]))).toThrow(SerializationError);
  });

  it('refuses payloads that are not plain objects or not serializable', () => {
    expect(() => jsonSerializer.serialize('a', [1] as unknown)).toThrow(/plain object/);
    expect(() => jsonSerializer.serialize('a', null)).toThrow(/plain object/);
    expect(() => jsonSerializer.serialize('a', { n: 1n })).toThrow(/not JSON-serializable/);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => jsonSerializer.serialize('a', cyclic)).toThrow(SerializationError);
  });
});
