import type { MessagePort } from 'node:worker_threads';
import type { ClientMappingInfo } from '../../main/conditioner/relay/clientMappings';
import type { ConditionerStats } from '../../main/conditioner/conditioner';
import type { LinkConditionerOptions } from '../../main/conditioner/conditionerOptions';
import type { LinkDirection } from '../../main/conditioner/model/linkDirection';
import type { LinkProfile } from '../../main/conditioner/linkProfile';

/** Start options of a relay on a worker thread: everything but the clock, which cannot cross threads. */
export type WorkerConditionerOptions = Omit<LinkConditionerOptions, 'scheduler'>;

/** What the worker is started with. */
export interface WorkerStartData {
  options: WorkerConditionerOptions;
  /** The worker's end of the synchronous control channel. */
  control: MessagePort;
  /** The counter the control channel's caller blocks on. */
  signal: SharedArrayBuffer;
}

/** A synchronous request on the control channel, by operation. */
export type ControlRequest =
  { op: 'stats' } | { op: 'clients' } | { op: 'setProfile'; changes: [LinkDirection, LinkProfile][] };

/** The answer to each control request. */
export interface ControlAnswers {
  stats: ConditionerStats;
  clients: ClientMappingInfo[];
  setProfile: null;
}

/** An error as it crosses threads: enough to rebuild a useful one (the code, e.g. EADDRINUSE). */
export interface ThreadError {
  name: string;
  message: string;
  code?: string;
}

/** Worker → caller, on the worker's own port. */
export type FromWorker =
  | { kind: 'ready'; address: { host: string; port: number; family: 'IPv4' | 'IPv6' } }
  | { kind: 'failed'; error: ThreadError }
  | { kind: 'closed'; stats: ConditionerStats };

/** Caller → worker, on the worker's own port. */
export type ToWorker = { kind: 'close' };

/** Flattens an error for postMessage. */
export function toThreadError(error: unknown): ThreadError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  const code = (error as NodeJS.ErrnoException).code;
  return { name: error.name, message: error.message, ...(code !== undefined ? { code } : {}) };
}

/** Rebuilds an error that crossed threads, keeping its name, message and code. */
export function fromThreadError(error: ThreadError): Error {
  const rebuilt: NodeJS.ErrnoException = new Error(error.message);
  rebuilt.name = error.name;
  if (error.code !== undefined) rebuilt.code = error.code;
  return rebuilt;
}
