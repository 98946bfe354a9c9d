import type { DhtCode, DirectCode, InternetCode } from '../../../shared/rendezvous';
import type { AgreementContext } from '../../net/secure';

/** What both ends of an internet join run the key agreement on: the code's secret, bound to the room. */
export function internetJoinAgreement(code: InternetCode): AgreementContext {
  return { secret: new TextEncoder().encode(code.secret), channel: ['internet-join', code.roomId] };
}

/** The same for a direct room's join: the secret, bound to the public address and port the code names. */
export function directJoinAgreement(code: DirectCode): AgreementContext {
  return {
    secret: new TextEncoder().encode(code.secret),
    channel: ['direct-join', code.address, String(code.port)],
  };
}

/** The same for a DHT room's join: the secret, bound to the room's public key on the DHT. */
export function dhtJoinAgreement(code: DhtCode): AgreementContext {
  return { secret: new TextEncoder().encode(code.secret), channel: ['dht-join', code.publicKey] };
}
