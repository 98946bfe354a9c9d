export {
  INTERNET_CODE_CHARS,
  INTERNET_CODE_PREFIX,
  CODE_SECRET_CHARS,
  DIRECT_CODE_CHARS,
  decodeInternetCode,
  encodeInternetCode,
  encodeDirectCode,
  readInternetCode,
  newCodeSecret,
  looksLikeInternetCode,
  type InternetCode,
  type InternetCodeParse,
  type DirectCode,
  type InternetInvite,
  type InternetInviteParse,
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
  pakeSchema,
  sealedSchema,
  roomIdSchema,
  roomSecretSchema,
  serviceMessageSchema,
  turnGrantSchema,
  type ClientMessage,
  type ClientMessageBody,
  type IceParameters,
  type ServiceMessage,
  type ServiceMessageBody,
  type TurnGrant,
} from './rendezvousMessages';
