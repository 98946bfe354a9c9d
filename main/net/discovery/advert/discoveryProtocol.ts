/** Wire constants of gale.net v1 LAN discovery, plus the limits LAN Party adds on top. */
export const DISCOVERY = {
  /** Every request and reply starts with these 9 ASCII bytes. */
  MAGIC: 'GALEDISC1',
  /** The reference's default discovery port. */
  DEFAULT_PORT: 9998,
  /** The reference searcher reads replies of at most 512 bytes; its server reads requests of at most 512. */
  MAX_DATAGRAM_BYTES: 512,
  /** Our queries are padded to this size so a rich reply is never larger than the query that asked for it. */
  QUERY_BYTES: 512,
  /** Marker value of the "query" field that asks for a rich reply. */
  QUERY_MARKER: 'lanparty',
  /** Version of LAN Party's richer discovery fields, sent as "protocol". */
  PROTOCOL_VERSION: 1,
  /** Longest server or game name we send or show, in characters. */
  MAX_NAME_CHARS: 64,
  /** Longest instance id accepted. */
  MAX_ID_CHARS: 64,
} as const;

/** The magic as bytes, for prefix checks on raw datagrams. */
export const DISCOVERY_MAGIC_BYTES: Uint8Array = new TextEncoder().encode(DISCOVERY.MAGIC);

/** Whether a datagram starts with the discovery magic. */
export function hasDiscoveryMagic(datagram: Uint8Array): boolean {
  if (datagram.length < DISCOVERY_MAGIC_BYTES.length) return false;
  return DISCOVERY_MAGIC_BYTES.every((byte, index) => datagram[index] === byte);
}
