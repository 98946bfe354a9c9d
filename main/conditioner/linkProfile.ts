/** The impairments applied to one direction of the link. Plain data, so it can cross IPC and be stored. */
export interface LinkProfile {
  /** Independent loss probability per datagram, in [0, 1]. */
  loss: number;
  /** Gilbert–Elliott: probability per datagram of moving from the good to the bad state; 0 disables bursts. */
  burstEnter: number;
  /** Gilbert–Elliott: probability per datagram of leaving the bad state (mean burst length is 1 / burstExit). */
  burstExit: number;
  /** Gilbert–Elliott: loss probability while in the bad state. */
  burstLoss: number;
  /** Fixed one-way delay in milliseconds. */
  latencyMs: number;
  /**
   * Delay varies uniformly in [latency - jitter, latency + jitter] (floored at 0). Jitter alone never reorders (a
   * datagram waits for the one ahead of it, like a FIFO link), so at high rates delays sit nearer latency + jitter.
   */
  jitterMs: number;
  /** Probability that a datagram is also delivered a second time. */
  duplicate: number;
  /** Probability that a datagram is held back by reorderDelayMs, letting later datagrams overtake it. */
  reorder: number;
  /** Extra delay given to a reordered datagram, in milliseconds. */
  reorderDelayMs: number;
  /** Bandwidth cap on datagram payload bytes, in kilobits (1000 bits) per second; 0 = unlimited. */
  bandwidthKbps: number;
  /** With a bandwidth cap: the longest queueing delay (ms) before datagrams are tail-dropped, like a router buffer. */
  maxBacklogMs: number;
}

/** Every field of a profile, in display order. */
export const LINK_PROFILE_FIELDS = [
  'loss',
  'burstEnter',
  'burstExit',
  'burstLoss',
  'latencyMs',
  'jitterMs',
  'duplicate',
  'reorder',
  'reorderDelayMs',
  'bandwidthKbps',
  'maxBacklogMs',
] as const satisfies readonly (keyof LinkProfile)[];

/** A perfect link: every impairment off. */
export const DEFAULT_LINK_PROFILE: Readonly<LinkProfile> = Object.freeze({
  loss: 0,
  burstEnter: 0,
  burstExit: 0.5,
  burstLoss: 1,
  latencyMs: 0,
  jitterMs: 0,
  duplicate: 0,
  reorder: 0,
  reorderDelayMs: 20,
  bandwidthKbps: 0,
  maxBacklogMs: 1000,
});

/** Longest delay any millisecond setting may ask for; larger values are almost surely a unit mistake. */
export const MAX_DELAY_MS = 60_000;

type Rule = { kind: 'probability' } | { kind: 'range'; min: number; max: number; minExclusive?: boolean };

const RULES: Record<keyof LinkProfile, Rule> = {
  loss: { kind: 'probability' },
  burstEnter: { kind: 'probability' },
  burstExit: { kind: 'range', min: 0, max: 1, minExclusive: true },
  burstLoss: { kind: 'probability' },
  latencyMs: { kind: 'range', min: 0, max: MAX_DELAY_MS },
  jitterMs: { kind: 'range', min: 0, max: MAX_DELAY_MS },
  duplicate: { kind: 'probability' },
  reorder: { kind: 'probability' },
  reorderDelayMs: { kind: 'range', min: 0, max: MAX_DELAY_MS },
  bandwidthKbps: { kind: 'range', min: 0, max: 100_000_000 },
  maxBacklogMs: { kind: 'range', min: 0, max: MAX_DELAY_MS, minExclusive: true },
};

/** One problem found in a profile: which field, and what is wrong with it. */
export interface LinkProfileIssue {
  field: string;
  message: string;
}

/** Thrown for an invalid profile; `issues` lists every problem, not just the first. */
export class LinkProfileError extends Error {
  constructor(readonly issues: readonly LinkProfileIssue[]) {
    super(`Invalid link profile: ${issues.map((i) => `${i.field}: ${i.message}`).join('; ')}`);
    this.name = 'LinkProfileError';
  }
}

function describe(value: unknown): string {
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (typeof value === 'string') return JSON.stringify(value);
  return value === null ? 'null' : typeof value;
}

function checkValue(field: keyof LinkProfile, value: unknown): string | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value)) return `must be a finite number, got ${describe(value)}`;
  const rule = RULES[field];
  const min = rule.kind === 'probability' ? 0 : rule.min;
  const max = rule.kind === 'probability' ? 1 : rule.max;
  const minExclusive = rule.kind === 'range' && rule.minExclusive === true;
  if (value < min || value > max || (minExclusive && value === min)) {
    const range = minExclusive ? `greater than ${min} and at most ${max}` : `between ${min} and ${max}`;
    return `must be ${range}, got ${value}`;
  }
  return undefined;
}

/** Lists the problems in an untrusted partial profile (unknown keys, wrong types, out-of-range values). */
export function linkProfileIssues(input: unknown): LinkProfileIssue[] {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return [{ field: '(profile)', message: 'must be an object of link settings' }];
  }
  const issues: LinkProfileIssue[] = [];
  for (const [field, value] of Object.entries(input)) {
    if (!(field in RULES)) {
      issues.push({ field, message: `is not a link setting (known: ${LINK_PROFILE_FIELDS.join(', ')})` });
      continue;
    }
    if (value === undefined) continue;
    const problem = checkValue(field as keyof LinkProfile, value);
    if (problem !== undefined) issues.push({ field, message: problem });
  }
  return issues;
}

/** Validates an untrusted partial profile (e.g. from IPC or a CLI) and returns it typed; throws LinkProfileError. */
export function parseLinkProfilePatch(input: unknown): Partial<LinkProfile> {
  const issues = linkProfileIssues(input);
  if (issues.length > 0) throw new LinkProfileError(issues);
  const patch: Partial<LinkProfile> = {};
  for (const field of LINK_PROFILE_FIELDS) {
    const value = (input as Record<string, unknown>)[field];
    if (value !== undefined) patch[field] = value as number;
  }
  return patch;
}

/** Applies a validated patch over a base profile (defaults if omitted) and returns a new full profile. */
export function resolveLinkProfile(
  patch: unknown = {},
  base: Readonly<LinkProfile> = DEFAULT_LINK_PROFILE,
): LinkProfile {
  return { ...base, ...parseLinkProfilePatch(patch) };
}

/** True when the profile changes nothing, so datagrams may be forwarded without consulting the model. */
export function isTransparentProfile(p: Readonly<LinkProfile>): boolean {
  return (
    p.loss === 0 &&
    p.burstEnter === 0 &&
    p.latencyMs === 0 &&
    p.jitterMs === 0 &&
    p.duplicate === 0 &&
    p.reorder === 0 &&
    p.bandwidthKbps === 0
  );
}
