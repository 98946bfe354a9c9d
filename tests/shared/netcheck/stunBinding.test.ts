import { describe, expect, it } from 'vitest';
import { encodeBindingRequest, parseBindingResponse } from '../../../shared/netcheck/stunBinding';
import { stunSuccess } from '../../support/stunTestServer';

const TX = Uint8Array.from({ length: 12 }, (_, i) => i + 1);

describe('STUN binding', () => {
  it('encodes a 20-byte Binding request with the magic cookie and the transaction id', () => {
    const request = encodeBindingRequest(TX);
    expect(Buffer.from(request).toString('hex')).toBe('000100002112a442' + Buffer.from(TX).toString('hex'));
    expect(() => encodeBindingRequest(new Uint8Array(11))).toThrow(RangeError);
  });

  it('reads XOR-MAPPED-ADDRESS, and MAPPED-ADDRESS when it is the only one', () => {
    expect(parseBindingResponse(stunSuccess(TX, '203.0.113.7', 40123), TX)).toEqual({
      address: '203.0.113.7',
      port: 40123,
    });
    expect(parseBindingResponse(stunSuccess(TX, '198.51.100.2', 5000, { xor: false }), TX)).toEqual({
      address: '198.51.100.2',
      port: 5000,
    });
  });

  it('refuses another transaction, another message type, truncation and lying lengths', () => {
    const good = stunSuccess(TX, '203.0.113.7', 40123);
    const otherTx = TX.map((b) => b ^ 0xff);
    expect(parseBindingResponse(good, otherTx)).toBeNull();
    const request = Uint8Array.from(good);
    request[0] = 0x00; // 0x0001: a request, not a success response
    expect(parseBindingResponse(request, TX)).toBeNull();
    for (let cut = 0; cut < good.length; cut += 1) expect(parseBindingResponse(good.subarray(0, cut), TX)).toBeNull();
    const longAttr = Uint8Array.from(good);
    longAttr[23] = 200; // the attribute claims more bytes than the message holds
    expect(parseBindingResponse(longAttr, TX)).toBeNull();
    const ipv6 = Uint8Array.from(good);
    ipv6[25] = 0x02;
    expect(parseBindingResponse(ipv6, TX)).toBeNull();
  });
});
