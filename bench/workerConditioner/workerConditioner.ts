import { MessageChannel, Worker } from 'node:worker_threads';
import type { ClientMappingInfo } from '../../main/conditioner/relay/clientMappings';
import type { Conditioner, ConditionerStats } from '../../main/conditioner/conditioner';
import { resolveConditionerOptions } from '../../main/conditioner/conditionerOptions';
import { resolveProfileChange, type LinkDirection } from '../../main/conditioner/model/linkDirection';
import type { LinkProfile } from '../../main/conditioner/linkProfile';
import { SyncCaller } from './syncCall';
import {
  fromThreadError,
  type ControlAnswers,
  type ControlRequest,
  type FromWorker,
  type ToWorker,
  type WorkerConditionerOptions,
  type WorkerStartData,
} from './workerMessages';
import { workerScript } from './workerScript';

export type { WorkerConditionerOptions } from './workerMessages';

/** How long a synchronous call (stats, setProfile) waits for the worker before giving up: a safety bound only. */
const CALL_TIMEOUT_MS = 10_000;

type Address = Conditioner['address'];

/**
 * The LinkConditioner on a worker thread of its own, with the same API: its receive + send per datagram no longer
 * competes with the sender and receiver on the caller's event loop. stats(), clients() and setProfile() stay
 * synchronous and exact (a blocking call the worker answers between datagrams). Randomness comes from the seed;
 * a manual clock cannot cross threads, so exact-timing tests use the in-thread LinkConditioner.
 */
export class WorkerConditioner implements Conditioner {
  readonly target: { readonly host: string; readonly port: number };
  readonly seed: number;
  private readonly profiles: Record<LinkDirection, LinkProfile>;
  private readonly control: SyncCaller<ControlRequest, ControlAnswers[ControlRequest['op']]>;
  private readonly exited: Promise<void>;
  private running = true;
  private failure: Error | undefined;
  /** The counters once closing began: a snapshot, replaced by the worker's final one. */
  private final: ConditionerStats | undefined;
  private closing: Promise<void> | undefined;

  private constructor(
    private readonly worker: Worker,
    caller: SyncCaller<ControlRequest, ControlAnswers[ControlRequest['op']]>,
    readonly address: Address,
    resolved: ReturnType<typeof resolveConditionerOptions>,
  ) {
    this.control = caller;
    this.target = { host: resolved.target.address, port: resolved.target.port };
    this.seed = resolved.seed;
    this.profiles = { upstream: resolved.upstream, downstream: resolved.downstream };
    worker.on('message', (message: FromWorker) => {
      if (message.kind === 'closed') this.final = message.stats;
    });
    worker.on('error', (error) => (this.failure = error));
    this.exited = new Promise((resolve) =>
      worker.once('exit', () => {
        this.running = false;
        resolve();
      }),
    );
  }

  /**
   * Validates the options exactly as LinkConditioner.start does (same errors), starts the worker and resolves once
   * it relays; a bind error in the worker (e.g. EADDRINUSE) rejects with that error's message and code.
   */
  static async start(options: WorkerConditionerOptions): Promise<WorkerConditioner> {
    if ((options as { scheduler?: unknown }).scheduler !== undefined) {
      throw new TypeError(
        'a scheduler cannot cross into a worker thread; use LinkConditioner.start for a manual clock',
      );
    }
    const resolved = resolveConditionerOptions(options);
    const { port1, port2 } = new MessageChannel();
    const signal = new SharedArrayBuffer(4);
    const script = workerScript('conditionerWorker');
    const workerData: WorkerStartData = { options: { ...options, seed: resolved.seed }, control: port2, signal };
    const worker = new Worker(script.filename, { ...script.options, workerData, transferList: [port2] });
    try {
      const address = await ready(worker);
      return new WorkerConditioner(worker, new SyncCaller(port1, signal, CALL_TIMEOUT_MS), address, resolved);
    } catch (error) {
      port1.close();
      await worker.terminate();
      throw error;
    }
  }

  profile(direction: LinkDirection): LinkProfile {
    const profile = this.profiles[direction];
    if (profile === undefined) throw new TypeError(`direction must be 'upstream' or 'downstream'`);
    return { ...profile };
  }

  setProfile(direction: LinkDirection | 'both', patch: Partial<LinkProfile>): void {
    const changes = resolveProfileChange(direction, patch, (d) => this.profiles[d]);
    // Applied in the worker before this returns, so the next datagram sent already sees the new settings.
    if (this.closing === undefined) this.call({ op: 'setProfile', changes });
    for (const [d, profile] of changes) this.profiles[d] = profile;
  }

  stats(): ConditionerStats {
    if (this.final !== undefined) return this.final;
    return this.call({ op: 'stats' }) as ConditionerStats;
  }

  clients(): ClientMappingInfo[] {
    if (this.closing !== undefined) return [];
    return this.call({ op: 'clients' }) as ClientMappingInfo[];
  }

  /** Closes the relay's sockets and resolves once the worker thread has ended. Safe to call twice. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      if (this.running && this.failure === undefined) {
        this.final = { ...this.stats(), mappings: 0 };
        this.worker.postMessage({ kind: 'close' } satisfies ToWorker);
      }
      await this.exited;
    })();
    return this.closing;
  }

  private call(request: ControlRequest): ControlAnswers[ControlRequest['op']] {
    if (this.failure !== undefined) throw new Error(`link conditioner worker failed: ${this.failure.message}`);
    if (!this.running) throw new Error('link conditioner worker has stopped');
    return this.control.call(request);
  }
}

/** Resolves with the relay's address once the worker reports it listens; rejects if it fails or exits first. */
function ready(worker: Worker): Promise<Address> {
  return new Promise((resolve, reject) => {
    const settle = (): void => {
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
    };
    const onMessage = (message: FromWorker): void => {
      settle();
      if (message.kind === 'ready') resolve(message.address);
      else if (message.kind === 'failed') reject(fromThreadError(message.error));
      else reject(new Error(`link conditioner worker sent ${message.kind} before it started`));
    };
    const onError = (error: Error): void => {
      settle();
      reject(new Error(`link conditioner worker failed to start: ${error.message}`));
    };
    const onExit = (code: number): void => {
      settle();
      reject(new Error(`link conditioner worker exited (code ${code}) before it started`));
    };
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
  });
}
