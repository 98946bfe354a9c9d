import type { Scheduler } from '../../base/scheduler';
import type { OpenDatagramSocket } from '../../net/index';
import { encodeBindingRequest, parseBindingResponse, Stun } from '../../../shared/netcheck/stunBinding';
import type { StunServer } from './portMapping';
import { askRouter } from './router/routerExchange';

/** The public address a STUN server sees this machine at, or undefined when it does not answer in time. */
export async function stunPublicAddress(options: {
  readonly server: StunServer;
  readonly openSocket: OpenDatagramSocket;
  readonly scheduler: Scheduler;
  readonly randomBytes: (size: number) => Uint8Array;
  readonly timeoutMs: number;
}): Promise<string | undefined> {
  const transactionId = options.randomBytes(Stun.TRANSACTION_ID_BYTES);
  const mapped = await askRouter({
    openSocket: options.openSocket,
    scheduler: options.scheduler,
    bindAddress: '0.0.0.0',
    host: options.server.host,
    port: options.server.port,
    request: encodeBindingRequest(transactionId),
    parse: (datagram) => parseBindingResponse(datagram, transactionId),
    timeoutMs: options.timeoutMs,
  });
  return mapped?.address;
}
