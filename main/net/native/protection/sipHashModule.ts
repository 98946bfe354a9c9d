/**
 * SipHash-2-4 as a WebAssembly module, written out here opcode by opcode (no toolchain, no dependency). JavaScript
 * has no 64-bit integers but BigInt, which allocates; WebAssembly's i64 add, xor and rotate do a round in a few
 * instructions.
 *
 * The module exports `memory` (two 64 KiB pages, never grown: room for any UDP datagram) and
 * `sip(k0l, k0h, k1l, k1h, prefixLow, prefixHigh, prefixed, length, lengthByte)`, all i32: it hashes
 * `[prefix ‖] memory[DATA_OFFSET, DATA_OFFSET + length)` and stores the 64-bit result little-endian at offset 0.
 * `lengthByte` is the low byte of the message length counting the prefix (the last block carries it).
 */

/** 64 KiB pages of the module's memory. */
const PAGES = 2;
/** Where the message bytes go in the module's memory; the result takes bytes 0–7. */
export const DATA_OFFSET = 64;
/** Longest message the module hashes: the last block reads 8 bytes from where the data ends. */
export const MAX_WASM_MESSAGE = PAGES * 65536 - DATA_OFFSET - 8;

// Opcodes used (WebAssembly core spec, binary format).
const LOCAL_GET = 0x20;
const LOCAL_SET = 0x21;
const I32_CONST = 0x41;
const I64_CONST = 0x42;
const I32_ADD = 0x6a;
const I32_AND = 0x71;
const I32_GE_U = 0x4f;
const I32_SHL = 0x74;
const I64_ADD = 0x7c;
const I64_SUB = 0x7d;
const I64_AND = 0x83;
const I64_OR = 0x84;
const I64_XOR = 0x85;
const I64_SHL = 0x86;
const I64_ROTL = 0x89;
const I64_EXTEND_I32_U = 0xad;
const I64_LOAD = 0x29;
const I64_STORE = 0x37;
const BLOCK = 0x02;
const LOOP = 0x03;
const IF = 0x04;
const END = 0x0b;
const BR = 0x0c;
const BR_IF = 0x0d;
const VOID = 0x40;
const I32 = 0x7f;
const I64 = 0x7e;

// Parameters, then locals, by index.
const K0L = 0;
const K0H = 1;
const K1L = 2;
const K1H = 3;
const PL = 4;
const PH = 5;
const PREFIXED = 6;
const LENGTH = 7;
const LENGTH_BYTE = 8;
const PARAMS = 9;
const V0 = 9;
const V1 = 10;
const V2 = 11;
const V3 = 12;
const M = 13;
const K0 = 14;
const K1 = 15;
const I64_LOCALS = 7;
const AT = 16;
const WHOLE = 17;
const I32_LOCALS = 2;

function uleb(value: number): number[] {
  const out: number[] = [];
  do {
    let byte = value & 0x7f;
    value >>>= 7;
    if (value !== 0) byte |= 0x80;
    out.push(byte);
  } while (value !== 0);
  return out;
}

function sleb(value: bigint): number[] {
  const out: number[] = [];
  for (;;) {
    const byte = Number(value & 0x7fn);
    value >>= 7n;
    const done = (value === 0n && (byte & 0x40) === 0) || (value === -1n && (byte & 0x40) !== 0);
    out.push(done ? byte : byte | 0x80);
    if (done) return out;
  }
}

/** An i64 constant given as an unsigned 64-bit value (the wire encodes it signed). */
const i64 = (value: bigint): number[] => [I64_CONST, ...sleb(BigInt.asIntN(64, value))];
const get = (local: number): number[] => [LOCAL_GET, local];
const set = (local: number): number[] => [LOCAL_SET, local];
/** The i64 `(high << 32) | low` of two i32 locals. */
const join = (low: number, high: number): number[] => [
  ...get(high),
  I64_EXTEND_I32_U,
  ...i64(32n),
  I64_SHL,
  ...get(low),
  I64_EXTEND_I32_U,
  I64_OR,
];
/** `a = a op b`. */
const update = (a: number, b: number, op: number): number[] => [...get(a), ...get(b), op, ...set(a)];
const rotate = (v: number, bits: bigint): number[] => [...get(v), ...i64(bits), I64_ROTL, ...set(v)];

/** One SipRound on v0..v3. */
const SIP_ROUND = [
  ...update(V0, V1, I64_ADD),
  ...rotate(V1, 13n),
  ...update(V1, V0, I64_XOR),
  ...rotate(V0, 32n),
  ...update(V2, V3, I64_ADD),
  ...rotate(V3, 16n),
  ...update(V3, V2, I64_XOR),
  ...update(V0, V3, I64_ADD),
  ...rotate(V3, 21n),
  ...update(V3, V0, I64_XOR),
  ...update(V2, V1, I64_ADD),
  ...rotate(V1, 17n),
  ...update(V1, V2, I64_XOR),
  ...rotate(V2, 32n),
];

/** Absorbs the block in M: two compression rounds. */
const COMPRESS = [...update(V3, M, I64_XOR), ...SIP_ROUND, ...SIP_ROUND, ...update(V0, M, I64_XOR)];

const BODY = [
  ...join(K0L, K0H),
  ...set(K0),
  ...join(K1L, K1H),
  ...set(K1),
  ...get(K0),
  ...i64(0x736f6d6570736575n),
  I64_XOR,
  ...set(V0),
  ...get(K1),
  ...i64(0x646f72616e646f6dn),
  I64_XOR,
  ...set(V1),
  ...get(K0),
  ...i64(0x6c7967656e657261n),
  I64_XOR,
  ...set(V2),
  ...get(K1),
  ...i64(0x7465646279746573n),
  I64_XOR,
  ...set(V3),
  // The prefix (a packet number) is the first block.
  ...get(PREFIXED),
  IF,
  VOID,
  ...join(PL, PH),
  ...set(M),
  ...COMPRESS,
  END,
  // at = DATA_OFFSET; whole = DATA_OFFSET + (length & ~7)
  I32_CONST,
  ...sleb(BigInt(DATA_OFFSET)),
  ...set(AT),
  ...get(LENGTH),
  I32_CONST,
  ...sleb(-8n),
  I32_AND,
  I32_CONST,
  ...sleb(BigInt(DATA_OFFSET)),
  I32_ADD,
  ...set(WHOLE),
  BLOCK,
  VOID,
  LOOP,
  VOID,
  ...get(AT),
  ...get(WHOLE),
  I32_GE_U,
  BR_IF,
  1,
  ...get(AT),
  I64_LOAD,
  3,
  0,
  ...set(M),
  ...COMPRESS,
  ...get(AT),
  I32_CONST,
  8,
  I32_ADD,
  ...set(AT),
  BR,
  0,
  END,
  END,
  // Last block: the 0–7 bytes left (a full load, masked: the bytes past the data are whatever is there) and the
  // length byte on top. m = (load(at) & ((1 << 8 * (length & 7)) - 1)) | (lengthByte << 56)
  ...get(AT),
  I64_LOAD,
  3,
  0,
  ...i64(1n),
  ...get(LENGTH),
  I32_CONST,
  7,
  I32_AND,
  I32_CONST,
  3,
  I32_SHL,
  I64_EXTEND_I32_U,
  I64_SHL,
  ...i64(1n),
  I64_SUB,
  I64_AND,
  ...get(LENGTH_BYTE),
  I64_EXTEND_I32_U,
  ...i64(56n),
  I64_SHL,
  I64_OR,
  ...set(M),
  ...COMPRESS,
  // Finalization: v2 ^= 0xff, four rounds, v0 ^ v1 ^ v2 ^ v3 stored at 0.
  ...get(V2),
  ...i64(0xffn),
  I64_XOR,
  ...set(V2),
  ...SIP_ROUND,
  ...SIP_ROUND,
  ...SIP_ROUND,
  ...SIP_ROUND,
  I32_CONST,
  0,
  ...get(V0),
  ...get(V1),
  I64_XOR,
  ...get(V2),
  I64_XOR,
  ...get(V3),
  I64_XOR,
  I64_STORE,
  3,
  0,
  END,
];

const section = (id: number, content: number[]): number[] => [id, ...uleb(content.length), ...content];
const vector = (items: number[][]): number[] => [...uleb(items.length), ...items.flat()];
const name = (text: string): number[] => [...uleb(text.length), ...Array.from(text, (c) => c.charCodeAt(0))];

/** The module's bytes. */
export function sipHashModuleBytes(): Uint8Array {
  const type = [0x60, ...vector(Array.from({ length: PARAMS }, () => [I32])), 0];
  const locals = vector([
    [...uleb(I64_LOCALS), I64],
    [...uleb(I32_LOCALS), I32],
  ]);
  const code = [...locals, ...BODY];
  return Uint8Array.from([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, vector([type])),
    ...section(3, vector([[0]])),
    ...section(5, vector([[0x00, PAGES]])),
    ...section(
      7,
      vector([
        [...name('memory'), 0x02, 0],
        [...name('sip'), 0x00, 0],
      ]),
    ),
    ...section(10, vector([[...uleb(code.length), ...code]])),
  ]);
}

/** The instantiated module's entry point and memory. */
export interface SipHashInstance {
  sip(
    k0l: number,
    k0h: number,
    k1l: number,
    k1h: number,
    prefixLow: number,
    prefixHigh: number,
    prefixed: number,
    length: number,
    lengthByte: number,
  ): void;
  memory: Uint8Array;
}

/** The part of the WebAssembly API used here (the project's TypeScript libs declare no WebAssembly values). */
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: Record<string, unknown> };
}

/** Compiles the module, synchronously (it is ~1 KB); Node and Electron's main process always have WebAssembly. */
export function instantiateSipHash(): SipHashInstance {
  const api = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;
  const { exports } = new api.Instance(new api.Module(sipHashModuleBytes()));
  const memory = exports.memory as { buffer: ArrayBuffer };
  return { sip: exports.sip as SipHashInstance['sip'], memory: new Uint8Array(memory.buffer) };
}
