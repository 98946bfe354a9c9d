import { describe, expect, it } from 'vitest';
import {
  DEFAULT_LINK_PROFILE,
  LINK_PROFILE_FIELDS,
  LinkProfileError,
  isTransparentProfile,
  linkProfileIssues,
  parseLinkProfilePatch,
  resolveLinkProfile,
} from '../../../main/conditioner/linkProfile';

describe('link profile validation', () => {
  it('accepts the defaults, which impair nothing', () => {
    expect(linkProfileIssues(DEFAULT_LINK_PROFILE)).toEqual([]);
    expect(isTransparentProfile(DEFAULT_LINK_PROFILE)).toBe(true);
    expect(Object.keys(DEFAULT_LINK_PROFILE).sort()).toEqual([...LINK_PROFILE_FIELDS].sort());
  });

  it.each([
    ['loss', -0.1, 'must be between 0 and 1, got -0.1'],
    ['loss', 1.5, 'must be between 0 and 1, got 1.5'],
    ['duplicate', 2, 'must be between 0 and 1, got 2'],
    ['reorder', -1, 'must be between 0 and 1, got -1'],
    ['burstExit', 0, 'must be greater than 0 and at most 1, got 0'],
    ['latencyMs', -5, 'must be between 0 and 60000, got -5'],
    ['jitterMs', 60_001, 'must be between 0 and 60000, got 60001'],
    ['bandwidthKbps', -1, 'must be between 0 and 100000000, got -1'],
    ['maxBacklogMs', 0, 'must be greater than 0 and at most 60000, got 0'],
    ['loss', Number.NaN, 'must be a finite number, got NaN'],
    ['latencyMs', Infinity, 'must be a finite number, got Infinity'],
    ['latencyMs', '40', 'must be a finite number, got "40"'],
    ['loss', null, 'must be a finite number, got null'],
    ['loss', 1n, 'must be a finite number, got 1'],
  ])('reports %s = %s', (field, value, message) => {
    expect(linkProfileIssues({ [field]: value })).toEqual([{ field, message }]);
  });

  it('names unknown settings and lists the known ones', () => {
    const [issue] = linkProfileIssues({ lossRate: 0.1 });
    expect(issue?.field).toBe('lossRate');
    expect(issue?.message).toMatch(/is not a link setting \(known: loss, burstEnter/);
  });

  it('rejects a non-object', () => {
    for (const bad of [null, 3, 'x', [1]]) {
      expect(linkProfileIssues(bad)).toEqual([{ field: '(profile)', message: 'must be an object of link settings' }]);
    }
  });

  it('reports every problem at once, in a readable error', () => {
    let caught: unknown;
    try {
      parseLinkProfilePatch({ loss: 3, latencyMs: -1, nope: 1 });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(LinkProfileError);
    const error = caught as LinkProfileError;
    expect(error.issues.map((i) => i.field)).toEqual(['loss', 'latencyMs', 'nope']);
    expect(error.message).toMatch(/^Invalid link profile: loss: must be between 0 and 1, got 3; latencyMs: /);
  });

  it('skips undefined values and drops nothing else', () => {
    expect(parseLinkProfilePatch({ loss: 0.2, latencyMs: undefined })).toEqual({ loss: 0.2 });
  });
});

describe('resolveLinkProfile', () => {
  it('merges a patch over the defaults or a given base without mutating either', () => {
    const base = resolveLinkProfile({ latencyMs: 30 });
    expect(base).toEqual({ ...DEFAULT_LINK_PROFILE, latencyMs: 30 });
    const next = resolveLinkProfile({ loss: 0.5 }, base);
    expect(next).toEqual({ ...DEFAULT_LINK_PROFILE, latencyMs: 30, loss: 0.5 });
    expect(base.loss).toBe(0);
    expect(DEFAULT_LINK_PROFILE.latencyMs).toBe(0);
  });

  it('throws instead of merging a bad patch', () => {
    expect(() => resolveLinkProfile({ jitterMs: -1 })).toThrow(LinkProfileError);
  });
});

describe('isTransparentProfile', () => {
  it.each([
    ['loss', 0.01],
    ['burstEnter', 0.1],
    ['latencyMs', 1],
    ['jitterMs', 1],
    ['duplicate', 0.1],
    ['reorder', 0.1],
    ['bandwidthKbps', 100],
  ])('is false once %s is set', (field, value) => {
    expect(isTransparentProfile({ ...DEFAULT_LINK_PROFILE, [field]: value })).toBe(false);
  });

  it('ignores settings that only matter when another is on', () => {
    expect(
      isTransparentProfile({ ...DEFAULT_LINK_PROFILE, reorderDelayMs: 500, burstExit: 0.1, maxBacklogMs: 5 }),
    ).toBe(true);
  });
});
