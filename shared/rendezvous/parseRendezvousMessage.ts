import type { z } from 'zod';
import { RENDEZVOUS_LIMITS, RENDEZVOUS_VERSION } from './rendezvousLimits';
import { RendezvousErrorCode } from './rendezvousErrorCode';
import type { ClientMessageBody, ServiceMessageBody } from './rendezvousMessages';
import { describeIssues } from '../ipc/describeIssues';
import { clipText } from '../text/normalizeText';

/** A parsed message, or why it was refused (a code and a short message safe to send back or log). */
export type ParsedRendezvousMessage<T> =
  | { readonly ok: true; readonly message: T }
  | { readonly ok: false; readonly code: RendezvousErrorCode; readonly message: string };

/**
 * Parses one WebSocket text message against a message schema. Refuses, never throws: over the size bound
 * (counted in UTF-16 units, never more than the UTF-8 bytes the socket carried), not JSON, another version,
 * or a message the schema rejects.
 */
export function parseRendezvousMessage<S extends z.ZodType>(
  text: string,
  schema: S,
): ParsedRendezvousMessage<z.output<S>> {
  if (text.length > RENDEZVOUS_LIMITS.MAX_MESSAGE_BYTES) {
    return {
      ok: false,
      code: RendezvousErrorCode.TOO_LARGE,
      message: `message over ${RENDEZVOUS_LIMITS.MAX_MESSAGE_BYTES} bytes`,
    };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, code: RendezvousErrorCode.MALFORMED, message: 'message is not JSON' };
  }
  if (typeof json === 'object' && json !== null && 'v' in json && json.v !== RENDEZVOUS_VERSION) {
    return {
      ok: false,
      code: RendezvousErrorCode.UNSUPPORTED_VERSION,
      message: `protocol version ${RENDEZVOUS_VERSION} only`,
    };
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    return { ok: false, code: RendezvousErrorCode.MALFORMED, message: clipText(describeIssues(parsed.error), 400) };
  }
  return { ok: true, message: parsed.data };
}

/** The text of a message with the protocol version added. */
export function frameMessage(body: ClientMessageBody | ServiceMessageBody): string {
  return JSON.stringify({ v: RENDEZVOUS_VERSION, ...body });
}
