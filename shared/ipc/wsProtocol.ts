import { z } from 'zod';
import { ipcResultSchema } from './result';

/** The query parameter that carries the per-run secret on the WebSocket URL. */
export const WS_SECRET_PARAM = 'secret';

/** Largest frame either side accepts; settings and lobby messages are tiny. */
export const WS_MAX_PAYLOAD_BYTES = 256 * 1024;

/** Client → server: one request; `id` pairs it with its response. */
export const wsRequestMessageSchema = z.object({
  t: z.literal('req'),
  id: z.number().int().nonnegative(),
  name: z.string().min(1).max(100),
  input: z.unknown().optional(),
});

/** Server → client: the result of request `id`. */
export const wsResponseMessageSchema = z.object({
  t: z.literal('res'),
  id: z.number().int().nonnegative(),
  result: ipcResultSchema,
});

/** Server → client: an event pushed by main. */
export const wsEventMessageSchema = z.object({
  t: z.literal('evt'),
  name: z.string().min(1),
  payload: z.unknown(),
});

/** Anything the server may send. */
export const wsServerMessageSchema = z.discriminatedUnion('t', [wsResponseMessageSchema, wsEventMessageSchema]);

/** A client request frame. */
export type WsRequestMessage = z.output<typeof wsRequestMessageSchema>;

/** A server frame. */
export type WsServerMessage = z.output<typeof wsServerMessageSchema>;

/** The binding's URL for a port and secret (always loopback). */
export function webSocketBindingUrl(port: number, secret: string): string {
  return `ws://127.0.0.1:${port}/?${WS_SECRET_PARAM}=${encodeURIComponent(secret)}`;
}
