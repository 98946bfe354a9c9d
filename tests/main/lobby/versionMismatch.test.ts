import { describe, expect, it } from 'vitest';
import { compareAppVersions, versionMismatchMessage } from '../../../main/lobby/versionMismatch';

describe('compareAppVersions', () => {
  it.each([
    ['1.2.3', '1.2.3', 0],
    ['1.2.10', '1.2.9', 1],
    ['1.10.0', '1.9.9', 1],
    ['2.0.0', '10.0.0', -1],
    ['1.0.0-beta.2', '1.0.0', -1],
    ['1.0.0-beta.10', '1.0.0-beta.9', 1],
    ['1.0.0-alpha', '1.0.0-alpha.1', -1],
    ['1.0.0-1', '1.0.0-alpha', -1],
    ['v1.2.3', '1.2.3+build.7', 0],
  ])('%s vs %s → %d', (a, b, expected) => {
    expect(compareAppVersions(a, b)).toBe(expected);
    expect(compareAppVersions(b, a)).toBe(expected === 0 ? 0 : -expected);
  });

  it('cannot order what is not a version', () => {
    expect(compareAppVersions('dev', '1.0.0')).toBeNull();
    expect(compareAppVersions('1.0', '1.0.0')).toBeNull();
    expect(compareAppVersions('1.0.0', '')).toBeNull();
  });
});

describe('versionMismatchMessage', () => {
  const base = { ourProtocol: 1 } as const;

  it('a newer host: the guest must update', () => {
    expect(versionMismatchMessage({ ...base, hostApp: '1.4.0', hostProtocol: 2, ourApp: '1.3.0' })).toBe(
      'The host runs LAN Party 1.4.0, you run 1.3.0: update your app.',
    );
  });

  it('an older host: the host must update', () => {
    expect(
      versionMismatchMessage({ ...base, ourProtocol: 3, hostApp: '1.1.0', hostProtocol: 2, ourApp: '1.6.0' }),
    ).toBe('The host runs LAN Party 1.1.0, you run 1.6.0: update the host’s app.');
  });

  it('the protocol decides even when the app versions say otherwise (a downgraded or odd build)', () => {
    expect(versionMismatchMessage({ ...base, hostApp: '0.9.0', hostProtocol: 2, ourApp: '1.0.0' })).toBe(
      'The host runs LAN Party 0.9.0, you run 1.0.0: update your app.',
    );
  });

  it('without the host’s protocol, the app versions decide', () => {
    expect(versionMismatchMessage({ ...base, hostApp: '2.0.0', hostProtocol: undefined, ourApp: '1.0.0' })).toMatch(
      /: update your app\.$/,
    );
  });

  it('a host that says only its protocol: direction without its version', () => {
    expect(versionMismatchMessage({ ...base, hostApp: undefined, hostProtocol: 2, ourApp: '1.0.0' })).toBe(
      'The host runs a newer LAN Party than yours (1.0.0): update your app.',
    );
    expect(
      versionMismatchMessage({ ...base, ourProtocol: 3, hostApp: undefined, hostProtocol: 2, ourApp: '1.0.0' }),
    ).toBe('The host runs an older LAN Party than yours (1.0.0): update the host’s app.');
  });

  it('an older host that says nothing, or versions that cannot be ordered: the general advice', () => {
    const general = /^The host runs a different LAN Party version.*Update both to the same version\.$/;
    expect(versionMismatchMessage({ ...base, hostApp: undefined, hostProtocol: undefined, ourApp: '1.0.0' })).toMatch(
      general,
    );
    const odd = versionMismatchMessage({ ...base, hostApp: 'dev', hostProtocol: undefined, ourApp: '1.0.0' });
    expect(odd).toMatch(general);
    expect(odd).toContain('the host runs dev, you run 1.0.0');
  });
});
