/** Fixed facts of the native protocol (see README.md beside this file). */
export const Native = {
  /** First byte of every native datagram; v1 datagrams start with a channel byte 0–2. */
  MAGIC: 0xa7,
  /** Protocol version offered and accepted inside the v1 handshake (2: packet numbers, tags, keys, migration). */
  VERSION: 2,
  /** magic(1) + token(8) + packet number(4). */
  HEADER_SIZE: 13,
  /** Where the packet number (u32, big-endian: the low 32 bits of the sender's datagram count) starts. */
  PN_OFFSET: 9,
  /** The authenticator after the frames: SipHash-2-4 of (full packet number ‖ header ‖ frames), 8 bytes. */
  TAG_SIZE: 8,
  /** Packet numbers behind the newest received that are still accepted once (reordering); older ones are replays. */
  REPLAY_WINDOW: 1024,
  /** Bytes of a PATH_CHALLENGE / PATH_RESPONSE frame's data. */
  PATH_DATA: 8,
  /** Default datagram size: fits every IPv4 path, VPNs and PPPoE included. */
  DEFAULT_MTU: 1200,
  /** Smallest and largest datagram size either side may ask for. */
  MIN_MTU: 576,
  MAX_MTU: 1472,
  /** Reliable units in flight per channel; the ACK bitmap covers the whole window. */
  SEND_WINDOW: 4096,
  /** Largest ACK bitmap: SEND_WINDOW bits. */
  MAX_ACK_BITMAP: 512,
  /** Smallest receive window (bytes in flight towards one side) either side may advertise: ~14 full datagrams. */
  MIN_RECV_WINDOW: 16 * 1024,
  /** Longest disconnect reason on the wire, bytes. */
  MAX_REASON: 200,
  /** Offers are padded to this size so no reply (challenge or accept) is larger than its request. */
  MIN_OFFER_DATAGRAM: 200,
} as const;

/** Frame kinds inside a native datagram. */
export const Frame = {
  MESSAGE: 0x01,
  FRAGMENT: 0x02,
  ACK: 0x03,
  PING: 0x04,
  PONG: 0x05,
  DISCONNECT: 0x06,
  /** 8 random bytes; the receiver echoes them in a PATH_RESPONSE (proof it receives at that address). */
  PATH_CHALLENGE: 0x07,
  PATH_RESPONSE: 0x08,
} as const;

/** One of the {@link Frame} kinds. */
export type Frame = (typeof Frame)[keyof typeof Frame];

/** Bytes a MESSAGE or FRAGMENT frame needs before its body, at most (kind, channel, 4 varints). */
export const MAX_FRAME_OVERHEAD = 2 + 4 * 5;
