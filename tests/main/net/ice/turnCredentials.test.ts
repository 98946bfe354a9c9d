import { describe, expect, it } from 'vitest';
import { mintTurnCredentials } from '../../../../main/net/ice/turnCredentials';

describe('mintTurnCredentials', () => {
  it('follows the TURN REST convention coturn checks', () => {
    const c = mintTurnCredentials('s3cret', 'room42', 600, 1_700_000_000.7);
    expect(c.username).toBe('1700000600:room42');
    expect(c.expiresAt).toBe(1_700_000_600);
    // HMAC-SHA1("s3cret", "1700000600:room42"), base64 — computed independently with openssl.
    expect(c.password).toBe('N4/kgGP/Dx7WC01l7r4LnEO8gBI=');
  });

  it('refuses an empty secret, a bad id and a non-positive lifetime', () => {
    expect(() => mintTurnCredentials('', 'a', 60, 0)).toThrow(/secret/);
    expect(() => mintTurnCredentials('s', 'a:b', 60, 0)).toThrow(/id/);
    expect(() => mintTurnCredentials('s', 'a', 0, 0)).toThrow(/lifetime/);
  });
});
