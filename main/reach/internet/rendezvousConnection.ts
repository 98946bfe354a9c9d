import WebSocket from 'ws';
import {
  RENDEZVOUS_LIMITS,
  RendezvousError,
  RendezvousErrorCode,
  RendezvousKind,
  frameMessage,
  parseRendezvousMessage,
  serviceMessageSchema,
  type ClientMessageBody,
  type ServiceMessage,
} from '../../../shared/rendezvous';
import { Listeners, reportCallbackError } from '../../base/listeners';
import type { Scheduler } from '../../base/scheduler';

/** An open connection to a rendezvous service, past its welcome. */
export interface RendezvousConnection {
  /** The TURN servers' URLs the welcome named (no credentials: those come only for a join the host accepted). */
  readonly relays: readonly string[];
  /** Sends a message; throws a RendezvousError (too-large, unreachable) instead of sending a bad one. */
  send(body: ClientMessageBody): void;
  /** Every valid message from the service. */
  onMessage(listener: (message: ServiceMessage) => void): () => void;
  /** Called once when the connection ends for any reason but {@link close}, with why. */
  onClose(listener: (error: RendezvousError) => void): () => void;
  /**
   * The next message `accept` takes (returning it), or a rejection: an `error` message `fails` says is ours,
   * the connection ending, or `timeoutMs` passing.
   */
  expect<T>(
    accept: (message: ServiceMessage) => T | undefined,
    fails: (error: Extract<ServiceMessage, { kind: 'error' }>) => boolean,
    timeoutMs: number,
  ): Promise<T>;
  close(): void;
}

/** Options for {@link openRendezvousConnection}. */
export interface RendezvousConnectionOptions {
  readonly scheduler: Scheduler;
  /** For the TCP connect, the upgrade and the welcome together. */
  readonly timeoutMs: number;
}

function closeError(code: number, lastError: RendezvousError | undefined): RendezvousError {
  if (code === 1009) return new RendezvousError(RendezvousErrorCode.TOO_LARGE);
  if (lastError && (code === 1008 || code === 4000)) return lastError;
  return new RendezvousError(RendezvousErrorCode.UNREACHABLE, 'Lost the connection to the rendezvous service.');
}

/** Connects to `url` (ws:// or wss://) and waits for the service's welcome; rejects with a RendezvousError. */
export function openRendezvousConnection(
  url: string,
  { scheduler, timeoutMs }: RendezvousConnectionOptions,
): Promise<RendezvousConnection> {
  return new Promise((resolve, reject) => {
    let ws: WebSocket;
    try {
      ws = new WebSocket(url, { maxPayload: RENDEZVOUS_LIMITS.MAX_MESSAGE_BYTES, perMessageDeflate: false });
    } catch (error) {
      reject(
        new RendezvousError(RendezvousErrorCode.UNREACHABLE, `Bad rendezvous address: ${(error as Error).message}`),
      );
      return;
    }
    const messages = new Listeners<[ServiceMessage]>(reportCallbackError);
    const closes = new Listeners<[RendezvousError]>(reportCallbackError);
    // Waits of expect() end on every close, ours included, so no timer outlives the connection.
    const ended = new Listeners<[RendezvousError]>(reportCallbackError);
    let welcomed = false;
    let closedByUs = false;
    let lastError: RendezvousError | undefined;
    const timer = scheduler.setTimer(() => {
      ws.terminate();
      reject(
        new RendezvousError(
          RendezvousErrorCode.UNREACHABLE,
          `The rendezvous service did not answer within ${timeoutMs / 1000} s.`,
        ),
      );
    }, timeoutMs);

    ws.on('error', (error) => {
      if (welcomed) return;
      scheduler.clearTimer(timer);
      reject(
        new RendezvousError(RendezvousErrorCode.UNREACHABLE, `Cannot reach the rendezvous service (${error.message}).`),
      );
    });
    ws.on('close', (code) => {
      scheduler.clearTimer(timer);
      const error = closeError(code, lastError);
      if (!welcomed) {
        reject(error);
        return;
      }
      ended.emit(closedByUs ? new RendezvousError(RendezvousErrorCode.UNREACHABLE, 'Closed.') : error);
      if (!closedByUs) closes.emit(error);
    });
    ws.on('message', (data, isBinary) => {
      if (isBinary) return;
      const parsed = parseRendezvousMessage(String(data), serviceMessageSchema);
      // A service that sends nonsense is treated like one that is not there.
      if (!parsed.ok) return;
      const message = parsed.message;
      if (message.kind === RendezvousKind.ERROR) lastError = new RendezvousError(message.code, message.message);
      if (!welcomed) {
        if (message.kind !== RendezvousKind.WELCOME) {
          scheduler.clearTimer(timer);
          ws.terminate();
          reject(lastError ?? new RendezvousError(RendezvousErrorCode.UNREACHABLE, 'The service did not greet us.'));
          return;
        }
        welcomed = true;
        scheduler.clearTimer(timer);
        resolve(connection(message.relays));
        return;
      }
      messages.emit(message);
    });

    function connection(relays: readonly string[]): RendezvousConnection {
      return {
        relays,
        send(body) {
          const text = frameMessage(body);
          if (Buffer.byteLength(text) > RENDEZVOUS_LIMITS.MAX_MESSAGE_BYTES) {
            throw new RendezvousError(RendezvousErrorCode.TOO_LARGE, 'The offer is too large for the rendezvous.');
          }
          if (ws.readyState !== WebSocket.OPEN) throw closeError(1006, undefined);
          ws.send(text);
        },
        onMessage: (listener) => messages.add(listener),
        onClose: (listener) => closes.add(listener),
        expect(accept, fails, waitMs) {
          return new Promise((resolveNext, rejectNext) => {
            const finish = () => {
              scheduler.clearTimer(waitTimer);
              stopMessages();
              stopClose();
            };
            const waitTimer = scheduler.setTimer(() => {
              finish();
              rejectNext(new RendezvousError(RendezvousErrorCode.TIMEOUT));
            }, waitMs);
            const stopMessages = messages.add((message) => {
              if (message.kind === RendezvousKind.ERROR && fails(message)) {
                finish();
                rejectNext(new RendezvousError(message.code, message.message));
                return;
              }
              const value = accept(message);
              if (value === undefined) return;
              finish();
              resolveNext(value);
            });
            const stopClose = ended.add((error) => {
              finish();
              rejectNext(error);
            });
            if (ws.readyState !== WebSocket.OPEN) {
              finish();
              rejectNext(closeError(1006, lastError));
            }
          });
        },
        close() {
          closedByUs = true;
          ws.close(1000);
        },
      };
    }
  });
}
