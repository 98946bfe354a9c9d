import { randomBytes } from 'node:crypto';
import { Defaults, Wire } from '../v1/protocol';
import { Native } from '../native/wire/nativeWire';
import { MAX_MESSAGE, type NativeOptions, type ResolvedNativeOptions } from '../native/handshake/negotiation';
import type { DriveMode } from './driver';
import type { RetransmitOptions } from '../v1/rttEstimator';
import { compactJsonSerializer, jsonSerializer, type Serializer } from '../v1/serialization';
import { reportCallbackError } from '../../base/listeners';
import type { OpenDatagramSocket } from './datagramSocket';
import { backgroundScheduler, type Scheduler } from '../../base/scheduler';

export type { NativeOptions, ResolvedNativeOptions };
import { openUdpDatagramSocket } from './udpSocket';

/** Options common to Server and Client. */
export interface EndpointOptions {
  /**
   * The native protocol: offered by our Client, accepted by our Server; a Python gale.net peer
   * gets v1 either way. `false` speaks only v1. Default: on, with defaults.
   */
  native?: false | NativeOptions;
  /** Body codec; both ends must use the same. Default: the reference's JSON. */
  serializer?: Serializer;
  /** Seconds between pings. Default 1. */
  heartbeatInterval?: number;
  /** Seconds of silence before the other side counts as gone. Default 5. */
  timeout?: number;
  /** 'auto' (default): self-driven by timers. 'manual': call `update(dt)` from your loop, as in the reference. */
  drive?: DriveMode;
  /**
   * The clock and the auto mode's timers; tests inject a manual one. Its clock is in ms; every time the endpoint
   * takes or reports stays in seconds. Default real time with unref'd timers (an endpoint never keeps the process up).
   */
  scheduler?: Scheduler;
  /** Auto mode's service period in seconds. Default 0.01. */
  tickInterval?: number;
  /**
   * Auto mode's service period while no reliable data waits for an acknowledgement and no connect is under way
   * (only heartbeats and timeouts are due), seconds; never below `tickInterval`. Default 0.1.
   */
  idleTickInterval?: number;
  /** Retransmission timeout floor and ceiling. */
  retransmit?: RetransmitOptions;
  /**
   * Reliable messages (native: units of at most one datagram) allowed to wait behind the send window, per
   * channel; one more throws SendQueueFullError. Default 65,536.
   */
  maxQueued?: number;
  /**
   * Backpressure: once a connection's reliable messages waiting for an acknowledgement or for room in the
   * window (both channels; native: units) reach this many, reliable `send`/`sendTo` return false, and `onDrain` fires
   * when they are back at `lowWaterMark`. Default a quarter of `maxQueued` (16,384).
   */
  highWaterMark?: number;
  /** Where a backpressured connection counts as drained again (see `highWaterMark`). Default half of it. */
  lowWaterMark?: number;
  /**
   * Opens the socket the endpoint sends and receives on: a Server calls it once in `listen` (with its port
   * and host), a Client once per `connect` (port 0, host 0.0.0.0). Default: a `dgram` udp4 socket, as
   * always; `createMemoryNetwork().openSocket` runs the endpoint over an in-memory network instead.
   */
  openSocket?: OpenDatagramSocket;
  /** Receive buffer to ask the OS for, bytes. Default 4 MiB. */
  recvBufferSize?: number;
  /** Where exceptions thrown by your callbacks go. Default: console.error. */
  onCallbackError?: (error: unknown) => void;
}

/**
 * {@link EndpointOptions} with defaults filled in; `native` is undefined when turned off. `clock` reads the scheduler
 * in seconds, the transport's unit: the one place its ms become seconds.
 */
export type ResolvedEndpointOptions = Required<Omit<EndpointOptions, 'retransmit' | 'native'>> &
  Pick<EndpointOptions, 'retransmit'> & { native: ResolvedNativeOptions | undefined; clock: () => number };

/** Fills in defaults and rejects nonsensical values with a clear error. */
export function resolveEndpointOptions(options: EndpointOptions): ResolvedEndpointOptions {
  const { native, ...rest } = options;
  const resolved = {
    serializer: jsonSerializer,
    heartbeatInterval: Defaults.HEARTBEAT_INTERVAL,
    timeout: Defaults.TIMEOUT,
    drive: 'auto' as DriveMode,
    scheduler: backgroundScheduler,
    tickInterval: 0.01,
    idleTickInterval: 0.1,
    maxQueued: 65_536,
    recvBufferSize: 4 * 1024 * 1024,
    onCallbackError: reportCallbackError,
    openSocket: openUdpDatagramSocket,
    ...stripUndefined(rest),
    native: native === false ? undefined : resolveNative(native ?? {}),
  };
  const { highWaterMark, lowWaterMark } = resolveWaterMarks(resolved.maxQueued, options);
  for (const key of ['heartbeatInterval', 'timeout', 'tickInterval', 'idleTickInterval'] as const) {
    const v = resolved[key];
    if (!(typeof v === 'number' && Number.isFinite(v) && v > 0))
      throw new RangeError(`${key} must be a positive number of seconds, got ${v}`);
  }
  if (resolved.drive !== 'auto' && resolved.drive !== 'manual')
    throw new RangeError(`drive must be 'auto' or 'manual'`);
  const { scheduler } = resolved;
  return { ...resolved, highWaterMark, lowWaterMark, clock: () => scheduler.now() / 1000 };
}

/** The backpressure marks: given, or derived from the hard limit; low strictly below high. */
function resolveWaterMarks(
  maxQueued: number,
  options: EndpointOptions,
): { highWaterMark: number; lowWaterMark: number } {
  if (!(Number.isInteger(maxQueued) && maxQueued >= 1))
    throw new RangeError(`maxQueued must be a whole number ≥ 1, got ${maxQueued}`);
  const high = options.highWaterMark ?? Math.max(1, Math.floor(maxQueued / 4));
  if (!(Number.isInteger(high) && high >= 1))
    throw new RangeError(`highWaterMark must be a whole number of messages ≥ 1, got ${high}`);
  const low = options.lowWaterMark ?? Math.floor(high / 2);
  if (!(Number.isInteger(low) && low >= 0 && low < high))
    throw new RangeError(`lowWaterMark must be a whole number of messages from 0 to highWaterMark - 1, got ${low}`);
  return { highWaterMark: high, lowWaterMark: low };
}

function resolveNative(options: NativeOptions): ResolvedNativeOptions {
  const resolved = {
    serializer: compactJsonSerializer,
    mtu: Native.DEFAULT_MTU,
    maxMessageSize: 4 * 1024 * 1024,
    reassemblyBytes: 8 * 1024 * 1024,
    ...stripUndefined(options),
  };
  const { mtu, maxMessageSize, reassemblyBytes } = resolved;
  if (!Number.isInteger(mtu) || mtu < Native.MIN_MTU || mtu > Native.MAX_MTU)
    throw new RangeError(`native.mtu must be a whole number of bytes from ${Native.MIN_MTU} to ${Native.MAX_MTU}`);
  if (!Number.isInteger(maxMessageSize) || maxMessageSize < Wire.MAX_BODY_SIZE || maxMessageSize > MAX_MESSAGE)
    throw new RangeError(`native.maxMessageSize must be a whole number of bytes from ${Wire.MAX_BODY_SIZE} to 2^30`);
  if (!Number.isInteger(reassemblyBytes) || reassemblyBytes < maxMessageSize)
    throw new RangeError('native.reassemblyBytes must be a whole number ≥ native.maxMessageSize');
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
