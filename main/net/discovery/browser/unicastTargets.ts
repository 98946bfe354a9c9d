import type { SendFailure } from '../sendDatagram';

/** A discovery responder asked directly every round (an address the player added, e.g. across a VPN). */
export interface UnicastTarget {
  /** IPv4 address (names are resolved before they get here). */
  readonly host: string;
  /** The responder's discovery port. */
  readonly port: number;
}

/** How a unicast target answers; `serverKey` names its entry in the browsed list once it answered. */
export interface UnicastTargetStatus extends UnicastTarget {
  readonly status: 'waiting' | 'answered' | 'no-answer' | 'unreachable';
  readonly serverKey?: string;
  /** Why the query could not be sent (status `unreachable`). */
  readonly detail?: string;
}

/** Rounds since a target's last answer within which it still counts as answering (one lost reply is normal). */
const SILENT_ROUNDS_TOLERATED = 2;

interface Entry {
  sentRounds: number;
  answeredRound?: number;
  serverKey?: string;
  failure?: string;
}

/** The key of a target: host and port. */
export function unicastTargetKey(target: UnicastTarget): string {
  return `${target.host}:${target.port}`;
}

/**
 * Pure bookkeeping of which unicast targets answer, counted in search rounds rather than time: a target is
 * `no-answer` once a whole round passed without its reply, so the verdict follows the browse interval.
 */
export class UnicastTargetTracker {
  private readonly entries = new Map<string, Entry>();

  /** A round is being sent to `targets`; targets no longer listed are forgotten. */
  roundSent(targets: readonly UnicastTarget[], failures: readonly SendFailure[]): void {
    const keys = new Set(targets.map(unicastTargetKey));
    for (const key of this.entries.keys()) if (!keys.has(key)) this.entries.delete(key);
    for (const target of targets) {
      const key = unicastTargetKey(target);
      const entry = this.entries.get(key) ?? { sentRounds: 0 };
      entry.sentRounds += 1;
      const failure = failures.find((f) => f.target === target.host && f.port === target.port);
      if (failure) entry.failure = `${failure.code}: ${failure.message}`;
      else delete entry.failure;
      this.entries.set(key, entry);
    }
  }

  /** A reply came from `host:port`; returns whether that is one of the targets. */
  heard(host: string, port: number, serverKey: string): boolean {
    const entry = this.entries.get(`${host}:${port}`);
    if (!entry) return false;
    entry.answeredRound = entry.sentRounds;
    entry.serverKey = serverKey;
    return true;
  }

  /** Whether `host` is one of the targets' addresses (their replies are believed even from off-subnet). */
  hasHost(host: string): boolean {
    for (const key of this.entries.keys()) if (key.slice(0, key.lastIndexOf(':')) === host) return true;
    return false;
  }

  /** The status of each of `targets`, in their order. */
  statuses(targets: readonly UnicastTarget[]): UnicastTargetStatus[] {
    return targets.map((target) => {
      const entry = this.entries.get(unicastTargetKey(target));
      const base = { host: target.host, port: target.port };
      if (!entry) return { ...base, status: 'waiting' };
      if (entry.failure !== undefined) return { ...base, status: 'unreachable', detail: entry.failure };
      if (entry.answeredRound !== undefined && entry.sentRounds - entry.answeredRound <= SILENT_ROUNDS_TOLERATED) {
        return { ...base, status: 'answered', ...(entry.serverKey ? { serverKey: entry.serverKey } : {}) };
      }
      return { ...base, status: entry.sentRounds >= 2 || entry.answeredRound !== undefined ? 'no-answer' : 'waiting' };
    });
  }

  /** Forgets everything (the browser stopped). */
  clear(): void {
    this.entries.clear();
  }
}
