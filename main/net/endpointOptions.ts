import { randomBytes } from 'node:crypto';
import { Defaults } from './protocol';
import type { DriveMode } from './driver';
import type { RetransmitOptions } from './rttEstimator';
import { jsonSerializer, type Serializer } from './serialization';
import { reportCallbackError } from './listeners';

/** Options common to Server and Client. */
export interface EndpointOptions {
  /** Body codec; both ends must use the same. Default: the reference's JSON. */
  serializer?: Serializer;
  /** Seconds between pings. Default 1. */
  heartbeatInterval?: number;
  /** Seconds of silence before the other side counts as gone. Default 5. */
  timeout?: number;
  /** 'auto' (default): self-driven by timers. 'manual': call `update(dt)` from your loop, as in the reference. */
  drive?: DriveMode;
  /** Monotonic clock in seconds; injectable for tests. */
  clock?: () => number;
  /** Auto mode's service period in seconds. Default 0.01. */
  tickInterval?: number;
  /** Retransmission timeout floor and ceiling. */
  retransmit?: RetransmitOptions;
  /** Reliable messages allowed to wait behind the send window per channel. Default 65,536. */
  maxQueued?: number;
  /** Receive buffer to ask the OS for, bytes. Default 4 MiB. */
  recvBufferSize?: number;
  /** Where exceptions thrown by your callbacks go. Default: console.error. */
  onCallbackError?: (error: unknown) => void;
}

/** {@link EndpointOptions} with defaults filled in. */
export type ResolvedEndpointOptions = Required<Omit<EndpointOptions, 'retransmit'>> &
  Pick<EndpointOptions, 'retransmit'>;

/** The process's monotonic clock in seconds. */
export const monotonicSeconds = (): number => performance.now() / 1000;

/** Fills in defaults and rejects nonsensical values with a clear error. */
export function resolveEndpointOptions(options: EndpointOptions): ResolvedEndpointOptions {
  const resolved = {
    serializer: jsonSerializer,
    heartbeatInterval: Defaults.HEARTBEAT_INTERVAL,
    timeout: Defaults.TIMEOUT,
    drive: 'auto' as DriveMode,
    clock: monotonicSeconds,
    tickInterval: 0.01,
    maxQueued: 65_536,
    recvBufferSize: 4 * 1024 * 1024,
    onCallbackError: reportCallbackError,
    ...stripUndefined(options),
  };
  for (const key of ['heartbeatInterval', 'timeout', 'tickInterval'] as const) {
    const v = resolved[key];
    if (!(typeof v === 'number' && Number.isFinite(v) && v > 0))
      throw new RangeError(`${key} must be a positive number of seconds, got ${v}`);
  }
  if (resolved.drive !== 'auto' && resolved.drive !== 'manual')
    throw new RangeError(`drive must be 'auto' or 'manual'`);
  return resolved;
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** A random, non-zero unsigned 64-bit connection token from the OS's CSPRNG. */
export function randomToken(): bigint {
  for (;;) {
    const token = randomBytes(8).readBigUInt64BE(0);
    if (token !== 0n) return token;
  }
}
