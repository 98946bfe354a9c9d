import {
  frameMessage,
  type ClientMessageBody,
  type PeerOffer,
  type ServiceMessageBody,
} from '../../../shared/rendezvous';
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

/** A valid offer; `tag` varies the public key so offers can be told apart. */
export function offerOf(tag = 'A'): PeerOffer {
  return {
    ice: {
      usernameFragment: 'ufrag',
      password: 'p'.repeat(22),
      candidates: ['1 1 udp 2130706431 127.0.0.1 5000 typ host'],
    },
    publicKey: `${tag.repeat(42).slice(0, 42)}A`,
    nonce: 'n'.repeat(22),
  };
}
