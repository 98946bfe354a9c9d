/** End-to-end AEAD for internet paths: what the lobby and the rendezvous client import. */
export {
  createKeyPair,
  importPublicKey,
  deriveKeys,
  transcriptHash,
  type KeyPair,
  type SecureTranscript,
  type SecureRole,
  type DirectionalKeys,
} from './x25519Keys';
export {
  startGuestAgreement,
  answerGuestAgreement,
  agreedKeys,
  KeyAgreementError,
  type AgreementContext,
  type GuestAgreement,
  type HostAgreement,
  type SessionKeys,
  type AgreedKeys,
} from './keyAgreement';
export { CpaceAbort, type RandomBytes } from '../pake/cpace';
export { sealSignal, openSignal } from './signalSeal';
export {
  secureSocket,
  SECURE_OVERHEAD,
  type SecureSocket,
  type SecureSocketOptions,
  type AgreedKeyOptions,
  type X25519KeyOptions,
  type SecureCounters,
} from './secureSocket';
export { ReplayWindow } from './replayWindow';
