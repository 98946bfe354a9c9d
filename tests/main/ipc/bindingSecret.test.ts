import { describe, expect, it } from 'vitest';
import { createBindingSecret, secretsMatch } from '../../../main/ipc/bindingSecret';
import { parseBindingHash } from '../../../shared/ipc/bindingHash';

describe('binding secret', () => {
  it('is 32 random bytes as base64url, from the injected source', () => {
    const secret = createBindingSecret((size) => Buffer.alloc(size, 0xfb));
    expect(secret).toBe(Buffer.alloc(32, 0xfb).toString('base64url'));
    expect(secret).toHaveLength(43);
  });

  it('differs between runs with the real source and fits the URL hash format', () => {
    const a = createBindingSecret();
    expect(a).not.toBe(createBindingSecret());
    expect(parseBindingHash(`#ws=1&secret=${a}`)).toEqual({ port: 1, secret: a });
  });

  it('matches only the same secret', () => {
    expect(secretsMatch('abc', 'abc')).toBe(true);
    expect(secretsMatch('abc', 'abd')).toBe(false);
    expect(secretsMatch('abc', 'abcd')).toBe(false);
    expect(secretsMatch('abc', '')).toBe(false);
    expect(secretsMatch('', '')).toBe(false);
  });
});
