import { randomBytes } from 'node:crypto';
import { retryShortWaits } from '../../../base/retryShortWaits';
import type { Scheduler, TimerHandle } from '../../../base/scheduler';
import { PointToPointSocket } from '../../../net/ice';
import { openUdpDatagramSocket, type DatagramSocket, type DatagramSource } from '../../../net/index';
import {
  KeyAgreementError,
  openSignal,
  secureSocket,
  startGuestAgreement,
  type AgreedKeys,
  type AgreementContext,
  type SecureSocket,
} from '../../../net/secure';
import type { DirectCode } from '../../../../shared/rendezvous';
import {
  DIRECT_KEY_LABELS,
  directDatagram,
  DirectKind,
  offerDatagram,
  parseDirectDatagram,
  WELCOME_TEXT,
} from './directWire';
import { directJoinAgreement } from '../internetJoinAgreement';

/** Why a direct join failed, typed so the reach words it. */
export class DirectJoinError extends Error {
  override readonly name = 'DirectJoinError';
  constructor(
    /** mismatch: the host did not prove the secret; silent: no answer in time; busy: the room's budget is spent. */
    readonly reason: 'mismatch' | 'silent' | 'busy',
    message: string,
    /** With `busy`: the milliseconds the host asks to wait. */
    readonly waitMs = 0,
  ) {
    super(message);
  }
}

/** Options of {@link connectDirectRoom}. */
export interface DirectJoinOptions {
  readonly scheduler: Scheduler;
  /** The local address of the guest's UDP socket; default every interface. */
  readonly bindAddress?: string;
  /** Milliseconds between resends of an unanswered handshake datagram; default 300. */
  readonly resendMs?: number;
  /** Milliseconds a handshake step waits for its answer in all; default 3000. */
  readonly stepTimeoutMs?: number;
  /** Randomness for the agreement; default node:crypto. */
  readonly randomBytes?: (size: number) => Uint8Array;
  /** Opens the guest's UDP socket; default a real one. */
  readonly openSocket?: (bindAddress: string) => Promise<DatagramSocket>;
}

/** A secured path to a direct room, ready for a Client (which closes it). */
export interface DirectPath {
  readonly socket: SecureSocket;
}

/**
 * Joins a direct room as far as a sealed datagram path: from a fresh UDP socket, the CPace run on the code's
 * secret straight with the host's mapped port (resent while unanswered), the host's welcome checked under the
 * agreed keys, then every datagram sealed (secureSocket). A host that cannot prove the secret — a wrong code,
 * or someone in between — fails with `mismatch` before anything but the offer was sent; a room whose guess
 * budget is spent is waited out when the wait is short (retryShortWaits.ts).
 */
export function connectDirectRoom(code: DirectCode, options: DirectJoinOptions): Promise<DirectPath> {
  return retryShortWaits(
    options.scheduler,
    () => tryOnce(code, options),
    (error) => (error instanceof DirectJoinError && error.reason === 'busy' ? error.waitMs : undefined),
  );
}

async function tryOnce(code: DirectCode, options: DirectJoinOptions): Promise<DirectPath> {
  const open =
    options.openSocket ??
    ((bindAddress: string) => openUdpDatagramSocket({ port: 0, host: bindAddress, recvBufferSize: 0 }));
  const udp = await open(options.bindAddress ?? '0.0.0.0');
  return joinSealedDoor(directJoinAgreement(code), { address: code.address, port: code.port }, udp, options);
}

/**
 * The guest's side of a sealed door (directRoom.ts) over `udp`, which only `host` speaks to: the CPace run on
 * `context` (each step resent while unanswered), the welcome checked, then the sealed path. `udp` is the path's
 * from then on, and closed on failure.
 */
export async function joinSealedDoor(
  context: AgreementContext,
  host: DatagramSource,
  udp: DatagramSocket,
  options: Pick<DirectJoinOptions, 'scheduler' | 'resendMs' | 'stepTimeoutMs' | 'randomBytes'>,
): Promise<DirectPath> {
  const { scheduler } = options;
  const random = options.randomBytes ?? ((size: number) => new Uint8Array(randomBytes(size)));
  const resendMs = options.resendMs ?? 300;
  const stepTimeoutMs = options.stepTimeoutMs ?? 3000;
  let onHandshake: ((datagram: Uint8Array) => void) | undefined;
  let onData: ((datagram: Uint8Array) => void) | undefined;
  udp.listen({
    message: (datagram, from) => {
      // Only the host's port speaks to this socket: everything else is dropped.
      if (from.port !== host.port || from.address !== host.address) return;
      if (datagram[0] === DirectKind.DATA) onData?.(datagram.subarray(1));
      else onHandshake?.(datagram);
    },
    sendError: () => undefined,
    error: () => undefined,
  });

  /** Sends `datagram` every resendMs until `accept` takes an arrival (its value) or the step times out. */
  const step = <T>(datagram: Uint8Array, accept: (arrival: Uint8Array) => T | undefined): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const timers: TimerHandle[] = [];
      const finish = () => {
        onHandshake = undefined;
        for (const timer of timers) scheduler.clearTimer(timer);
      };
      onHandshake = (arrival) => {
        try {
          const value = accept(arrival);
          if (value === undefined) return;
          finish();
          resolve(value);
        } catch (error) {
          finish();
          reject(error instanceof Error ? error : new Error(String(error)));
        }
      };
      const sendNow = () => udp.send(datagram, host.port, host.address);
      sendNow();
      timers.push(scheduler.setRepeating(sendNow, resendMs));
      timers.push(
        scheduler.setTimer(() => {
          finish();
          reject(new DirectJoinError('silent', 'The host’s router did not answer: the room may be closed.'));
        }, stepTimeoutMs),
      );
    });

  try {
    const agreement = startGuestAgreement(context, random);
    const agreed = await step(offerDatagram(agreement.offer), (arrival) => {
      const read = parseDirectDatagram(arrival);
      if (read?.kind === DirectKind.BUSY) {
        throw new DirectJoinError('busy', 'The room is turning joins away for a moment.', read.waitMs);
      }
      if (read?.kind !== DirectKind.ANSWER) return undefined;
      try {
        return agreement.finish(read.answer);
      } catch (error) {
        if (error instanceof KeyAgreementError) {
          throw new DirectJoinError('mismatch', 'The host could not prove it holds the code’s secret.');
        }
        throw error;
      }
    });
    const keys: AgreedKeys = agreed.keys;
    await step(directDatagram(DirectKind.CONFIRM, agreed.confirm), (arrival) => {
      const read = parseDirectDatagram(arrival);
      if (read?.kind !== DirectKind.WELCOME) return undefined;
      // A welcome not sealed under our keys is someone else's: ignored, and the step goes on.
      return openSignal(keys.signalHostToGuest, read.sealed) === WELCOME_TEXT ? true : undefined;
    });
    const link = new PointToPointSocket({
      send: (datagram) => {
        udp.send(directDatagram(DirectKind.DATA, datagram), host.port, host.address);
        return Promise.resolve();
      },
      subscribe: (receive) => {
        onData = receive;
        return () => (onData = undefined);
      },
      local: () => ({ address: udp.address, port: udp.port }),
      remote: () => host,
      close: () => udp.close(),
    });
    const socket = secureSocket(link, {
      sessionKeys: keys.datagramKeys(DIRECT_KEY_LABELS.host, DIRECT_KEY_LABELS.guest),
      role: 'guest',
    });
    return { socket };
  } catch (error) {
    await udp.close();
    throw error;
  }
}
