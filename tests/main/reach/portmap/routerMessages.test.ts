import { describe, expect, it } from 'vitest';
import {
  encodeNatPmpExternalAddressRequest,
  encodeNatPmpMapRequest,
  parseNatPmpResponse,
} from '../../../../main/reach/portmap/router/natPmpMessages';
import {
  encodePcpAnnounceRequest,
  encodePcpMapRequest,
  parsePcpResponse,
} from '../../../../main/reach/portmap/router/pcpMessages';

// Byte-exact vectors written by hand from the RFCs' field tables, independently of the encoders.
const hex = (text: string): Uint8Array => Uint8Array.from(Buffer.from(text.replace(/\s+/g, ''), 'hex'));
const NONCE = hex('0102030405060708090a0b0c');

describe('NAT-PMP messages (RFC 6886)', () => {
  it('§3.2 external address request: version 0, opcode 0', () => {
    expect(encodeNatPmpExternalAddressRequest()).toEqual(hex('00 00'));
  });

  it('§3.3 UDP mapping request: version, opcode 1, reserved, internal port, suggested external port, lifetime', () => {
    expect(encodeNatPmpMapRequest(0x1234, 0x5678, 7200)).toEqual(hex('00 01 0000 1234 5678 00001c20'));
  });

  it('§3.4 deletion: lifetime 0 and external port 0', () => {
    expect(encodeNatPmpMapRequest(0x1234, 0, 0)).toEqual(hex('00 01 0000 1234 0000 00000000'));
  });

  it('§3.2 reads the external address response (opcode 128, result, epoch, address)', () => {
    expect(parseNatPmpResponse(hex('00 80 0000 00000e10 cb007101'))).toEqual({
      kind: 'external-address',
      resultCode: 0,
      epochSeconds: 3600,
      externalAddress: '203.0.113.1',
    });
  });

  it('§3.3 reads the mapping response (opcode 129: internal port, mapped external port, lifetime)', () => {
    expect(parseNatPmpResponse(hex('00 81 0000 00000064 1234 9abc 00000e10'))).toEqual({
      kind: 'map',
      resultCode: 0,
      epochSeconds: 100,
      internalPort: 0x1234,
      externalPort: 0x9abc,
      lifetimeSeconds: 3600,
    });
  });

  it('§3.5 keeps a refusal result code; ignores requests, other versions and short datagrams', () => {
    expect(parseNatPmpResponse(hex('00 81 0002 00000064 1234 0000 00000000'))).toMatchObject({ resultCode: 2 });
    expect(parseNatPmpResponse(hex('00 01 0000 1234 5678 00001c20'))).toBeNull();
    expect(parseNatPmpResponse(hex('02 81 0000 00000064 1234 9abc 00000e10'))).toBeNull();
    expect(parseNatPmpResponse(hex('00 81 0000 00000064 1234'))).toBeNull();
    expect(parseNatPmpResponse(hex('00 80 0000 00000e10'))).toBeNull();
  });

  it('refuses out-of-range fields with a clear error', () => {
    expect(() => encodeNatPmpMapRequest(0, 0, 60)).toThrow(RangeError);
    expect(() => encodeNatPmpMapRequest(1, 70000, 60)).toThrow(RangeError);
    expect(() => encodeNatPmpMapRequest(1, 1, -1)).toThrow(RangeError);
  });
});

describe('PCP messages (RFC 6887)', () => {
  // §7.1 header: version 2, R=0|opcode, 16 reserved bits, lifetime, client address as IPv4-mapped IPv6 (§5).
  const header = (opcode: string, lifetime: string) =>
    `02 ${opcode} 0000 ${lifetime} 00000000 00000000 0000ffff c0a84d02`;

  it('§14.1 ANNOUNCE: the common header alone, opcode 0, lifetime 0', () => {
    expect(encodePcpAnnounceRequest('192.168.77.2')).toEqual(hex(header('00', '00000000')));
  });

  it('§11.1 MAP request: header, then nonce, protocol 17, reserved, ports, suggested address ::ffff:0.0.0.0', () => {
    const request = encodePcpMapRequest({
      clientAddress: '192.168.77.2',
      nonce: NONCE,
      internalPort: 0x1234,
      suggestedExternalPort: 0x1234,
      lifetimeSeconds: 3600,
    });
    expect(request.length).toBe(60);
    expect(request).toEqual(
      hex(
        header('01', '00000e10') + '0102030405060708090a0b0c 11 000000 1234 1234 00000000 00000000 0000ffff 00000000',
      ),
    );
  });

  it('§15 deletion: the same MAP with lifetime 0', () => {
    const request = encodePcpMapRequest({
      clientAddress: '192.168.77.2',
      nonce: NONCE,
      internalPort: 0x1234,
      suggestedExternalPort: 0x9abc,
      lifetimeSeconds: 0,
    });
    expect(request.subarray(4, 8)).toEqual(hex('00000000'));
  });

  it('§7.2 + §11.1 reads a MAP response: result, lifetime, epoch, nonce, assigned port and address', () => {
    const response = hex(
      '02 81 00 00 00000e10 00000064 000000000000000000000000' +
        '0102030405060708090a0b0c 11 000000 1234 d431 00000000 00000000 0000ffff cb007101',
    );
    expect(parsePcpResponse(response)).toEqual({
      opcode: 1,
      resultCode: 0,
      lifetimeSeconds: 3600,
      epochSeconds: 100,
      map: { nonce: NONCE, protocol: 17, internalPort: 0x1234, externalPort: 0xd431, externalAddress: '203.0.113.1' },
    });
  });

  it('reads an ANNOUNCE response and a refusal; ignores requests, NAT-PMP answers and truncated MAPs', () => {
    expect(parsePcpResponse(hex('02 80 00 00 00000000 00000064 000000000000000000000000'))).toMatchObject({
      opcode: 0,
      resultCode: 0,
    });
    expect(parsePcpResponse(hex('02 80 00 08 00000000 00000064 000000000000000000000000'))).toMatchObject({
      resultCode: 8,
    });
    expect(parsePcpResponse(hex(header('01', '00000e10')))).toBeNull();
    expect(parsePcpResponse(hex('00 81 0000 00000064 1234 9abc 00000e10 00000000 00000000 00000000'))).toBeNull();
    expect(parsePcpResponse(hex('02 81 00 00 00000e10 00000064 000000000000000000000000 0102'))).toBeNull();
  });

  it('a native IPv6 external address is reported as not IPv4', () => {
    const response = hex(
      '02 81 00 00 00000e10 00000064 000000000000000000000000' +
        '0102030405060708090a0b0c 11 000000 1234 d431 20010db8 00000000 00000000 00000001',
    );
    expect(parsePcpResponse(response)?.map?.externalAddress).toBeUndefined();
  });

  it('refuses a bad nonce, port or client address with a clear error', () => {
    const base = {
      clientAddress: '192.168.77.2',
      nonce: NONCE,
      internalPort: 1,
      suggestedExternalPort: 0,
      lifetimeSeconds: 1,
    };
    expect(() => encodePcpMapRequest({ ...base, nonce: NONCE.subarray(1) })).toThrow(RangeError);
    expect(() => encodePcpMapRequest({ ...base, internalPort: 0 })).toThrow(RangeError);
    expect(() => encodePcpMapRequest({ ...base, clientAddress: 'fe80::1' })).toThrow(RangeError);
  });
});
