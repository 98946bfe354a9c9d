import type {
  ContractShape,
  EventNameOf,
  EventPayload,
  ParsedRequestInput,
  RequestNameOf,
  RequestOutput,
} from '../../shared/ipc/contractTypes';
import type { Transport } from '../../shared/ipc/schemas/appInfo';

/** What a handler learns about its caller: plain data only, never Electron objects. */
export interface RequestContext {
  readonly transport: Transport;
}

/** One handler per request of contract C; the compiler rejects a missing or extra one. */
export type HandlersOf<C extends ContractShape> = {
  readonly [K in RequestNameOf<C>]: (
    input: ParsedRequestInput<C, K>,
    context: RequestContext,
  ) => RequestOutput<C, K> | Promise<RequestOutput<C, K>>;
};

/** Pushes an event of contract C to every connected renderer. */
export type EmitFn<C extends ContractShape> = <K extends EventNameOf<C>>(name: K, payload: EventPayload<C, K>) => void;

/**
 * The handlers of every request of contract C whose name starts `<prefix>.`: what a feature's handler module
 * returns, so it writes each name once, as its handler's key (a missing or extra one fails to compile).
 */
export type HandlersIn<C extends ContractShape, Prefix extends string> = Pick<
  HandlersOf<C>,
  Extract<RequestNameOf<C>, `${Prefix}.${string}`>
>;
