import type { ContractShape, EventNameOf, RequestSpec } from '../../shared/ipc/contractTypes';
import { IpcError, IpcErrorCode } from '../../shared/ipc/errors';
import { describeIssues } from '../../shared/ipc/describeIssues';
import { err, ok, type IpcResult } from '../../shared/ipc/result';
import { Listeners } from '../base/listeners';
import type { Logger } from '../base/logger';
import type { EmitFn, HandlersOf, RequestContext } from './handlerTypes';

/** Receives every event the gateway emits; each binding registers one. */
export type EventSink = (name: string, payload: unknown) => void;

/** Options for {@link createGateway}. */
export interface GatewayOptions {
  /** Check handler outputs and event payloads against the contract (dev and tests; off in the packaged app). */
  readonly validateOutputs: boolean;
  readonly logger: Logger;
}

/** Counters for things the gateway refused, so tests and diagnostics can see them. */
export interface GatewayStats {
  readonly rejectedInputs: number;
  readonly failedRequests: number;
  readonly droppedEvents: number;
}

/** The one gateway every binding (Electron IPC, WebSocket) goes through. */
export interface Gateway<C extends ContractShape> {
  readonly requestNames: readonly string[];
  readonly eventNames: readonly string[];
  /** Validates, runs the handler and returns a result; never throws. */
  dispatch(name: string, input: unknown, context: RequestContext): Promise<IpcResult<unknown>>;
  /** Pushes an event (payload validated when validateOutputs) to every subscribed binding. */
  readonly emit: EmitFn<C>;
  /** Registers a binding's event sink; returns the unsubscribe. */
  subscribe(sink: EventSink): () => void;
  stats(): GatewayStats;
}

/** Builds the gateway for a contract and its handlers (one per request, checked by the compiler). */
export function createGateway<C extends ContractShape>(
  contract: C,
  handlers: HandlersOf<C>,
  options: GatewayOptions,
): Gateway<C> {
  const { logger, validateOutputs } = options;
  // The event being delivered, named when a sink throws.
  let delivering = '';
  // One broken binding (e.g. a closed window) must not starve the others.
  const sinks = new Listeners<[string, unknown]>((error) => logger.warn(`event sink failed for ${delivering}`, error));
  const counts = { rejectedInputs: 0, failedRequests: 0, droppedEvents: 0 };
  const requests: Readonly<Record<string, RequestSpec>> = contract.requests;
  const handlerTable = handlers as Readonly<Record<string, (input: unknown, ctx: RequestContext) => unknown>>;
  const has = (table: object, name: string): boolean => Object.prototype.hasOwnProperty.call(table, name);

  async function dispatch(name: string, input: unknown, context: RequestContext): Promise<IpcResult<unknown>> {
    const spec = has(requests, name) ? requests[name] : undefined;
    const handler = has(handlerTable, name) ? handlerTable[name] : undefined;
    if (!spec || !handler) {
      counts.rejectedInputs += 1;
      return err(IpcErrorCode.NOT_FOUND, `Unknown request "${String(name).slice(0, 100)}"`);
    }
    const parsed = spec.input.safeParse(input);
    if (!parsed.success) {
      counts.rejectedInputs += 1;
      return err(IpcErrorCode.INVALID_ARGUMENT, describeIssues(parsed.error));
    }
    let output: unknown;
    try {
      output = await handler(parsed.data, { transport: context.transport });
    } catch (error) {
      counts.failedRequests += 1;
      if (error instanceof IpcError) return err(error.code, error.message, error.detail);
      // Internals (paths, stack traces) stay in main's log; the renderer gets a generic message.
      logger.error(`request ${name} failed`, error);
      return err(IpcErrorCode.INTERNAL, `Internal error while handling ${name}`);
    }
    if (validateOutputs) {
      const checked = spec.output.safeParse(output);
      if (!checked.success) {
        counts.failedRequests += 1;
        logger.error(`request ${name} returned output that breaks the contract: ${describeIssues(checked.error)}`);
        return err(IpcErrorCode.INTERNAL, `Internal error: ${name} returned an invalid result`);
      }
      return ok(checked.data);
    }
    return ok(output);
  }

  const emit = ((name: string, payload: unknown): void => {
    const schema = has(contract.events, name) ? contract.events[name] : undefined;
    if (!schema) {
      counts.droppedEvents += 1;
      logger.error(`emit of unknown event "${name}" dropped`);
      return;
    }
    if (validateOutputs) {
      const checked = schema.safeParse(payload);
      if (!checked.success) {
        counts.droppedEvents += 1;
        logger.error(`event ${name} dropped: payload breaks the contract: ${describeIssues(checked.error)}`);
        return;
      }
    }
    delivering = name;
    sinks.emit(name, payload);
  }) as EmitFn<C>;

  return {
    requestNames: Object.freeze(Object.keys(contract.requests)),
    eventNames: Object.freeze(Object.keys(contract.events) as EventNameOf<C>[]),
    dispatch,
    emit,
    subscribe: (sink) => sinks.add(sink),
    stats: () => ({ ...counts }),
  };
}
