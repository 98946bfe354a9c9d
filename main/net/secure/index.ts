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
} from './keyAgreement';
export {
  secureSocket,
  SECURE_OVERHEAD,
  type SecureSocket,
  type SecureSocketOptions,
  type SecureCounters,
} from './secureSocket';
export { ReplayWindow } from './replayWindow';
