export {
  INTERNET_CODE_CHARS,
  INTERNET_CODE_PREFIX,
  KEY_CHECK_CHARS,
  KEY_DIGEST_MIN_BYTES,
  decodeInternetCode,
  encodeInternetCode,
  keyCheckOf,
  looksLikeInternetCode,
  type InternetCode,
  type InternetCodeParse,
} from './internetCode';
export { frameMessage, parseRendezvousMessage, type ParsedRendezvousMessage } from './parseRendezvousMessage';
export { RENDEZVOUS_ERROR_TEXT, RendezvousError, RendezvousErrorCode } from './rendezvousErrorCode';
export { RENDEZVOUS_LIMITS, RENDEZVOUS_VERSION } from './rendezvousLimits';
export {
  ROOM_ID_CHARS,
  RendezvousKind,
  clientMessageSchema,
  iceParametersSchema,
  joinIdSchema,
  peerOfferSchema,
  roomIdSchema,
  roomSecretSchema,
  serviceMessageSchema,
  turnGrantSchema,
  type ClientMessage,
  type ClientMessageBody,
  type IceParameters,
  type PeerOffer,
  type ServiceMessage,
  type ServiceMessageBody,
  type TurnGrant,
} from './rendezvousMessages';
