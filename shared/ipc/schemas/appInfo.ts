import { z } from 'zod';

/** How the renderer reaches the backend: Electron IPC, or the dev/test WebSocket binding. */
export const transportSchema = z.enum(['electron', 'websocket']);

/** One of the transports. */
export type Transport = z.output<typeof transportSchema>;

/** What `app.getInfo` returns. */
export const appInfoSchema = z.object({
  name: z.string(),
  version: z.string(),
  platform: z.string(),
  transport: transportSchema,
  /** Whether this backend asks the router to map an internet room's port: internet rooms need no rendezvous then. */
  portMapping: z.boolean(),
  /** Whether this backend meets guests on the DHT when the router maps nothing; absent from older backends. */
  dht: z.boolean().optional(),
});

/** What `app.getInfo` returns. */
export type AppInfo = z.output<typeof appInfoSchema>;

/** Longest message of an `app.reportError`; the renderer cuts longer ones before sending. */
export const ERROR_REPORT_MESSAGE_MAX = 2000;

/** Longest stack of an `app.reportError`. */
export const ERROR_REPORT_STACK_MAX = 8000;

/** Where the renderer caught an error: window `error`, `unhandledrejection`, or the React error boundary. */
export const errorSourceSchema = z.enum(['window-error', 'unhandled-rejection', 'render']);

/** One of the error sources. */
export type ErrorSource = z.output<typeof errorSourceSchema>;

/** `app.reportError` input: one renderer error for main's log, bounded so a broken page cannot send megabytes. */
export const errorReportSchema = z.strictObject({
  source: errorSourceSchema,
  message: z.string().max(ERROR_REPORT_MESSAGE_MAX),
  stack: z.string().max(ERROR_REPORT_STACK_MAX).optional(),
});

/** What the renderer sends with `app.reportError`. */
export type ErrorReport = z.input<typeof errorReportSchema>;

/** `app.reportError` output: false when main's rate limit suppressed it instead of logging it. */
export const errorReportResultSchema = z.strictObject({ logged: z.boolean() });
