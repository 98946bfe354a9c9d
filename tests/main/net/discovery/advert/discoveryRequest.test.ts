import { describe, expect, it } from 'vitest';
import {
  DISCOVERY,
  buildDiscoveryQuery,
  buildRichReply,
  parseDiscoveryRequest,
} from '../../../../../main/net/discovery';

const bytes = (value: string) => new TextEncoder().encode(value);

describe('discovery requests', () => {
  it("recognises the reference searcher's bare magic", () => {
    expect(parseDiscoveryRequest(bytes('GALEDISC1'))).toEqual({ kind: 'reference', size: 9 });
    expect(parseDiscoveryRequest(bytes('GALEDISC1\r\n'))).toEqual({ kind: 'reference', size: 11 });
  });

  it('builds LAN Party queries padded to 512 bytes that still start with the magic', () => {
    const query = buildDiscoveryQuery({ instanceId: 'me42', nonce: 7 });
    expect(query.length).toBe(DISCOVERY.QUERY_BYTES);
    expect(new TextDecoder().decode(query.subarray(0, 9))).toBe('GALEDISC1');
    expect(parseDiscoveryRequest(query)).toEqual({ kind: 'lanparty', size: 512, instanceId: 'me42', nonce: 7 });
    expect(parseDiscoveryRequest(buildDiscoveryQuery())).toEqual({ kind: 'lanparty', size: 512 });
  });

  it('drops invalid id and nonce fields of a query but still answers it', () => {
    const raw = bytes('GALEDISC1{"query": "lanparty", "id": "a b", "nonce": 1.5}');
    expect(parseDiscoveryRequest(raw)).toEqual({ kind: 'lanparty', size: raw.length });
  });

  it('a maximal rich reply is never larger than our query (no amplification)', () => {
    const reply = buildRichReply({
      name: 'W'.repeat(64),
      port: 65535,
      playerCount: 999999,
      capacity: 999999,
      passwordProtected: true,
      gameName: 'W'.repeat(64),
      instanceId: 'f'.repeat(64),
      nonce: 0xffffffff,
    });
    expect(reply.length).toBeLessThanOrEqual(buildDiscoveryQuery().length);
  });

  it.each([
    [
      'a reference reply (answering it could ping-pong with a reference server)',
      'GALEDISC1{"name": "x", "port": 1, "player_count": 0}',
    ],
    ['junk after the magic', 'GALEDISC1hello'],
    ['an unknown query marker', 'GALEDISC1{"query": "other"}'],
    ['a JSON array', 'GALEDISC1[1]'],
    ['another magic', 'GALEDISC2'],
    ['a prefix of the magic', 'GALEDI'],
    ['nothing', ''],
  ])('ignores %s', (_name, raw) => {
    expect(parseDiscoveryRequest(bytes(raw))).toBeUndefined();
  });

  it('ignores oversized and non-UTF-8 requests', () => {
    expect(parseDiscoveryRequest(bytes('GALEDISC1'.padEnd(513, ' ')))).toBeUndefined();
    expect(parseDiscoveryRequest(bytes('GALEDISC1'.padEnd(512, ' ')))).toEqual({ kind: 'reference', size: 512 });
    expect(parseDiscoveryRequest(new Uint8Array([...bytes('GALEDISC1'), 0xc3]))).toBeUndefined();
  });
});
