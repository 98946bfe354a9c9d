/** ICE over the datagram-socket seam: what the lobby and the rendezvous client import (see README.md). */
export {
  createIceSession,
  type IceSession,
  type IceSessionOptions,
  type IcePath,
  type StunServer,
  type TurnServer,
} from './iceSession';
export { IceConnectError, type IceFailure } from './iceConnectError';
export {
  parseIceParameters,
  checkCandidateLine,
  ownAddressOf,
  IceParametersError,
  MAX_REMOTE_CANDIDATES,
  type IceParameters,
} from './iceParameters';
export { createSocketMux, type SocketMux } from './socketMux';
export { candidateInScope, localSubnets, type LocalSubnet } from './candidateScope';
export { PointToPointSocket, type PointToPointLink } from './pointToPointSocket';
export { mintTurnCredentials, type TurnCredentials } from './turnCredentials';
export { probeTurnAllocation, type TurnProbeResult } from './turnProbe';
