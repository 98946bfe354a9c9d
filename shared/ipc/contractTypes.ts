import type { z } from 'zod';

/** One request: what the renderer sends and what main answers. */
export interface RequestSpec {
  readonly input: z.ZodType;
  readonly output: z.ZodType;
}

/** The shape of any IPC contract: requests by name, events (main → renderer) by name. */
export interface ContractShape {
  readonly requests: Readonly<Record<string, RequestSpec>>;
  readonly events: Readonly<Record<string, z.ZodType>>;
}

/** A request name of contract C. */
export type RequestNameOf<C extends ContractShape> = keyof C['requests'] & string;

/** An event name of contract C. */
export type EventNameOf<C extends ContractShape> = keyof C['events'] & string;

/** What the caller passes for request K (before parsing: defaults and trimming not yet applied). */
export type RequestInput<C extends ContractShape, K extends RequestNameOf<C>> = z.input<C['requests'][K]['input']>;

/** What the handler receives for request K (after parsing). */
export type ParsedRequestInput<C extends ContractShape, K extends RequestNameOf<C>> = z.output<
  C['requests'][K]['input']
>;

/** What request K resolves to. */
export type RequestOutput<C extends ContractShape, K extends RequestNameOf<C>> = z.output<C['requests'][K]['output']>;

/** The payload of event K. */
export type EventPayload<C extends ContractShape, K extends EventNameOf<C>> = z.output<C['events'][K]>;

/** Call arguments for request K: the input may be omitted when the schema accepts undefined. */
export type RequestArgs<C extends ContractShape, K extends RequestNameOf<C>> =
  undefined extends RequestInput<C, K> ? [input?: RequestInput<C, K>] : [input: RequestInput<C, K>];
