import { describe, expect, it } from 'vitest';
import { sha512 } from '@noble/hashes/sha2';
import vectors from '../../../fixtures/cpaceVectors.json';
import {
  CPACE_DSI,
  CpaceAbort,
  calculateGenerator,
  confirmationTag,
  generatorString,
  intermediateSessionKey,
  isIdentity,
  parallelIsk,
  scalarMult,
  scalarMultVfy,
  startCpace,
  type RandomBytes,
} from '../../../../main/net/pake/cpace';
import {
  lexicographicallyLarger,
  orderedCat,
  parsePrefixFree,
  prefixFreeCat,
  prependLen,
} from '../../../../main/net/pake/prefixFree';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const bytes = (text: string) => new Uint8Array(Buffer.from(text, 'hex'));
const scalarLE = (text: string) => BigInt('0x' + Buffer.from(text, 'hex').reverse().toString('hex'));
const v = vectors.ristretto255;

/** A random source that hands out the given 32-byte strings in turn (then fails the test). */
function scripted(...values: string[]): RandomBytes {
  const queue = values.map(bytes);
  return (size) => {
    const next = queue.shift();
    if (!next || next.length !== size) throw new Error('unexpected random draw');
    return next;
  };
}

describe('CPace string utilities (draft vectors)', () => {
  it('prepend_len and prefix_free_cat', () => {
    expect(hex(prependLen(bytes('')))).toBe('00');
    expect(hex(prependLen(bytes('31323334')))).toBe('0431323334');
    const r127 = prependLen(Uint8Array.from({ length: 127 }, (_, i) => i));
    expect([r127.length, hex(r127.subarray(0, 2))]).toEqual([128, '7f00']);
    const r128 = prependLen(Uint8Array.from({ length: 128 }, (_, i) => i));
    expect([r128.length, hex(r128.subarray(0, 3))]).toEqual([130, '800100']);
    expect(hex(prefixFreeCat(...vectors.prefixFreeCat.inputs.map(bytes)))).toBe(vectors.prefixFreeCat.output);
  });

  it('refuses the invalid encodings and parses valid ones back', () => {
    for (const message of vectors.invalidMessages) expect(parsePrefixFree(bytes(message), 2)).toBeUndefined();
    expect(parsePrefixFree(bytes(v.MSGa), 2)?.map(hex)).toEqual([v.Ya, v.ADa]);
    expect(parsePrefixFree(bytes(v.MSGa + '00'), 2)).toBeUndefined(); // trailing byte
  });

  it('lexicographic order and oCAT', () => {
    for (const c of vectors.lexicographicallyLarger)
      expect(lexicographicallyLarger(bytes(c.a), bytes(c.b))).toBe(c.larger);
    for (const c of vectors.orderedCat) expect(hex(orderedCat(bytes(c.a), bytes(c.b)))).toBe(c.output);
  });
});

describe('CPACE-RISTR255-SHA512 (draft vectors)', () => {
  const prs = bytes(v.PRS);
  const ci = bytes(v.CI);
  const sid = bytes(v.sid);

  it('derives the generator', () => {
    const text = generatorString(CPACE_DSI, prs, ci, sid);
    expect(hex(text)).toBe(v.generatorString);
    expect(hex(sha512(text))).toBe(v.generatorHash);
    expect(hex(calculateGenerator(prs, ci, sid).toRawBytes())).toBe(v.generator);
  });

  it('computes both messages, the shared point and both ISKs', () => {
    const g = calculateGenerator(prs, ci, sid);
    expect(hex(scalarMult(scalarLE(v.ya), g))).toBe(v.Ya);
    expect(hex(scalarMult(scalarLE(v.yb), g))).toBe(v.Yb);
    expect(hex(scalarMultVfy(scalarLE(v.ya), bytes(v.Yb)))).toBe(v.K);
    expect(hex(scalarMultVfy(scalarLE(v.yb), bytes(v.Ya)))).toBe(v.K);
    expect(hex(intermediateSessionKey(sid, bytes(v.K), bytes(v.MSGa + v.MSGb)))).toBe(v.ISK_IR);
    expect(hex(parallelIsk(sid, bytes(v.K), bytes(v.MSGa), bytes(v.MSGb)))).toBe(v.ISK_SY);
  });

  it('runs the protocol end to end with the vector scalars', () => {
    const a = startCpace('initiator', { prs, ci, sid, ad: bytes(v.ADa) }, scripted(v.ya));
    const b = startCpace('responder', { prs, ci, sid, ad: bytes(v.ADb) }, scripted(v.yb));
    expect(hex(a.message)).toBe(v.MSGa);
    expect(hex(b.message)).toBe(v.MSGb);
    const atA = a.receive(b.message);
    const atB = b.receive(a.message);
    expect(hex(atA.isk)).toBe(v.ISK_IR);
    expect(hex(atB.isk)).toBe(v.ISK_IR);
    expect(hex(atA.peerAd)).toBe(v.ADb);
    expect(hex(atB.peerAd)).toBe(v.ADa);
    expect(atA.ownTag).toEqual(confirmationTag(bytes(v.ISK_IR), bytes(v.MSGa)));
    expect(atB.checkPeerTag(atA.ownTag)).toBe(true);
    expect(atA.checkPeerTag(atB.ownTag)).toBe(true);
    expect(atA.checkPeerTag(atA.ownTag)).toBe(false); // a reflected tag is not the peer's
  });

  it('scalar_mult_vfy: a valid point, and G.I for the invalid and the neutral encodings', () => {
    const c = v.scalarMult;
    expect(hex(scalarMultVfy(scalarLE(c.s), bytes(c.X)))).toBe(c.result);
    const bad = v.invalidShares;
    expect(isIdentity(scalarMultVfy(scalarLE(bad.s), bytes(bad.Y_i1)))).toBe(true);
    expect(isIdentity(scalarMultVfy(scalarLE(bad.s), bytes(bad.Y_i2)))).toBe(true);
  });

  it('aborts on an invalid share, the neutral element, a malformed message or a second message', () => {
    const party = () => startCpace('responder', { prs, ci, sid, ad: bytes(v.ADb) }, scripted(v.yb));
    for (const share of [v.invalidShares.Y_i1, v.invalidShares.Y_i2]) {
      expect(() => party().receive(prefixFreeCat(bytes(share), bytes(v.ADa)))).toThrow(CpaceAbort);
    }
    for (const message of vectors.invalidMessages) expect(() => party().receive(bytes(message))).toThrow(CpaceAbort);
    const once = party();
    once.receive(bytes(v.MSGa));
    expect(() => once.receive(bytes(v.MSGa))).toThrow(CpaceAbort);
  });

  it('another password gives another key and a tag that does not check', () => {
    const random = scripted(v.ya, v.yb);
    const a = startCpace('initiator', { prs, ci, sid, ad: bytes(v.ADa) }, random);
    const b = startCpace('responder', { prs: bytes('50617373776f7265'), ci, sid, ad: bytes(v.ADb) }, random);
    const atA = a.receive(b.message);
    const atB = b.receive(a.message);
    expect(hex(atA.isk)).not.toBe(hex(atB.isk));
    expect(atB.checkPeerTag(atA.ownTag)).toBe(false);
  });
});
