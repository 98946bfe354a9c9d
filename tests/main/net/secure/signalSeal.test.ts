import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openSignal, sealSignal } from '../../../../main/net/secure/signalSeal';

const random = (size: number) => new Uint8Array(randomBytes(size));

describe('sealed signalling', () => {
  it('round trips, hides the text, and refuses another key, a flipped bit and garbage', () => {
    const key = random(32);
    const text = JSON.stringify({ ice: { candidates: ['1 1 udp 2130706431 192.168.1.20 5000 typ host'] } });
    const sealed = sealSignal(key, text, random);
    expect(openSignal(key, sealed)).toBe(text);
    expect(Buffer.from(sealed, 'base64url').toString('latin1')).not.toContain('192.168');
    expect(sealSignal(key, text, random)).not.toBe(sealed); // a fresh nonce each time
    expect(openSignal(random(32), sealed)).toBeUndefined();
    const bytes = Buffer.from(sealed, 'base64url');
    bytes[20]! ^= 1;
    expect(openSignal(key, bytes.toString('base64url'))).toBeUndefined();
    for (const junk of ['', 'AAAA', '!!!', 'x'.repeat(100)]) expect(openSignal(key, junk)).toBeUndefined();
  });
});
