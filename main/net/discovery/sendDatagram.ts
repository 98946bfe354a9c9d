import type { DatagramSocket } from '../endpoint/datagramSocket';
import { DISCOVERY } from './advert/discoveryProtocol';

/** A send that failed for one destination; discovery carries on with the others. */
export interface SendFailure {
  readonly target: string;
  readonly port: number;
  /** errno-style code such as EACCES, ENETUNREACH, EHOSTUNREACH, or ERR_… from Node. */
  readonly code: string;
  readonly message: string;
  /** Set when the failure has a known user-fixable cause. */
  readonly hint?: 'macos-local-network';
}

/**
 * Sends one datagram and resolves with the failure, if any; never throws or rejects. Refuses datagrams above
 * the 512-byte discovery limit rather than letting the reference truncate them.
 */
export function sendDatagram(
  socket: DatagramSocket,
  data: Uint8Array,
  port: number,
  target: string,
  platform: NodeJS.Platform = process.platform,
): Promise<SendFailure | undefined> {
  const fail = (error: Error): SendFailure => {
    const code = (error as NodeJS.ErrnoException).code ?? 'EUNKNOWN';
    return {
      target,
      port,
      code,
      message: error.message,
      // macOS denies Local Network access with "No route to host" (Apple TN3179).
      ...(platform === 'darwin' && code === 'EHOSTUNREACH' ? { hint: 'macos-local-network' as const } : {}),
    };
  };
  if (data.length > DISCOVERY.MAX_DATAGRAM_BYTES) {
    const tooLarge = Object.assign(new Error(`discovery datagram of ${data.length} bytes exceeds 512`), {
      code: 'EMSGSIZE',
    });
    return Promise.resolve(fail(tooLarge));
  }
  return new Promise((resolve) => {
    try {
      socket.send(data, port, target, (error) => resolve(error ? fail(error) : undefined));
    } catch (error) {
      resolve(fail(error as Error));
    }
  });
}
