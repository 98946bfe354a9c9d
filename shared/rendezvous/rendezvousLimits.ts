/** The rendezvous protocol version every message carries; a service refuses any other. */
export const RENDEZVOUS_VERSION = 4;

/**
 * Size bounds of the rendezvous protocol, shared by the service (which enforces them) and the clients (which
 * check before sending, so a too-big offer fails locally with a clear message instead of being cut off).
 */
export const RENDEZVOUS_LIMITS = {
  /** Largest WebSocket message, in bytes (an offer with 32 candidates is about 4 KB). */
  MAX_MESSAGE_BYTES: 16 * 1024,
  /** ICE candidates in one offer or answer. */
  MAX_CANDIDATES: 32,
  /** One candidate line (an SDP `a=candidate` value without the prefix). */
  MAX_CANDIDATE_CHARS: 256,
  /** ICE ufrag: RFC 8445 allows 4–256 characters; real agents use 4–32. */
  MIN_UFRAG_CHARS: 4,
  MAX_UFRAG_CHARS: 64,
  /** ICE password: 22–256 characters by RFC 8445. */
  MIN_ICE_PASSWORD_CHARS: 22,
  MAX_ICE_PASSWORD_CHARS: 128,
  /** Sealed signals per join and side after the confirmation (later candidates, restarts). */
  MAX_SIGNALS: 32,
  /** A sealed signal: ICE parameters with every candidate, sealed and base64url (about 4/3 of ~5 KB). */
  MAX_SEALED_CHARS: 8192,
  /** Reason text a host gives when it turns a guest away. */
  MAX_REASON_CHARS: 200,
} as const;
