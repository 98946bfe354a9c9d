import { frameMessage, type ClientMessageBody, type ServiceMessageBody } from '../../../shared/rendezvous';
import type { RendezvousPeer, RendezvousService, RendezvousSession } from '../../../main/rendezvous/rendezvousService';

/** A connection to the service without a socket: what it was sent, whether and how it was closed. */
export interface FakePeer {
  readonly sent: ServiceMessageBody[];
  closedWith: { code: number; reason: string } | undefined;
  session: RendezvousSession | null;
  say(body: ClientMessageBody): void;
  last(): ServiceMessageBody | undefined;
  ofKind<K extends ServiceMessageBody['kind']>(kind: K): Extract<ServiceMessageBody, { kind: K }>[];
}

/** Connects a fake peer from `address`. */
export function connectPeer(service: RendezvousService, address = '127.0.0.1'): FakePeer {
  const peer: FakePeer = {
    sent: [],
    closedWith: undefined,
    session: null,
    say: (body) => peer.session?.receive(frameMessage(body)),
    last: () => peer.sent.at(-1),
    ofKind: (kind) => peer.sent.filter((m) => m.kind === kind) as never,
  };
  const transport: RendezvousPeer = {
    address,
    send: (message) => peer.sent.push(message),
    close: (code, reason) => {
      peer.closedWith = { code, reason };
      peer.session?.closed();
    },
  };
  peer.session = service.connect(transport);
  return peer;
}

/** A well-formed CPace message for the wire (the service never reads it); `tag` tells them apart. */
export function pakeOf(tag = 'A'): string {
  return `${tag}${'p'.repeat(63)}`;
}

/** A well-formed sealed signal (opaque to the service); `tag` tells them apart. */
export function sealedOf(tag = 'S'): string {
  return `${tag}${'s'.repeat(63)}`;
}
