import { randomBytes } from 'node:crypto';
import { DISCOVERY, hasDiscoveryMagic } from './discoveryProtocol';

/** What a server advertises: the reference's three fields plus LAN Party's optional ones. */
export interface DiscoveryAdvert {
  readonly name: string;
  /** The game (not discovery) port clients connect to. */
  readonly port: number;
  readonly playerCount: number;
  /** LAN Party's discovery protocol version. */
  readonly protocolVersion?: number;
  /** Most players the server takes. */
  readonly capacity?: number;
  readonly passwordProtected?: boolean;
  /** Which game the server runs. */
  readonly gameName?: string;
  /** The host player's name (LAN Party's `host_player` field). */
  readonly hostName?: string;
  /** What the room is doing (LAN Party's `state` field): open lobby or a round in progress. */
  readonly state?: RoomActivity;
  /** Random per-process id, so one server seen through several interfaces is listed once. */
  readonly instanceId?: string;
  /** Echo of the query's nonce, to measure ping exactly. */
  readonly nonce?: number;
  /** A round is being played (new players wait for the lobby). */
  readonly inRound?: boolean;
  /** The host's app version, so a guest can say "another version" before connecting. */
  readonly appVersion?: string;
  /** The host's lobby protocol version; a guest of another one cannot join. */
  readonly lobbyProtocol?: number;
}

/** The room activities a reply's `state` field names. */
export const ROOM_ACTIVITIES = ['lobby', 'playing'] as const;

/** One of {@link ROOM_ACTIVITIES}. */
export type RoomActivity = (typeof ROOM_ACTIVITIES)[number];

const encoder = new TextEncoder();
const strictDecoder = new TextDecoder('utf-8', { fatal: true });

/** Longest app version sent or read ("1.2.3-beta.4" is 12). */
const MAX_VERSION_CHARS = 32;

const ID_PATTERN = /^[A-Za-z0-9_-]+$/;

/** Whether a value is a usable instance id (short, URL-safe characters only). */
export function isValidInstanceId(value: unknown): value is string {
  return typeof value === 'string' && value.length <= DISCOVERY.MAX_ID_CHARS && ID_PATTERN.test(value);
}

/** A fresh random instance id (64 bits, hex) for deduplicating one server seen on several interfaces. */
export function randomInstanceId(): string {
  return randomBytes(8).toString('hex');
}

/** Control, format (bidi overrides, zero-width) and separator characters that could disguise a name in a list. */
const UNSAFE_CHARACTERS = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

/** A name safe to show in a list: unsafe characters removed, trimmed, at most `maxChars` characters. */
export function cleanDisplayText(text: string, maxChars: number): string {
  return Array.from(text.replace(UNSAFE_CHARACTERS, '').trim()).slice(0, maxChars).join('');
}

/** A JSON scalar: replies are flat objects of these. */
export type PythonJsonValue = string | number | boolean | null;

function asciiString(text: string): string {
  // Python escapes everything outside printable ASCII (space..~), DEL included, one UTF-16 unit at a time.
  return JSON.stringify(text).replace(
    /[\u007f-\uffff]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * JSON text the way Python's json.dumps writes it by default (", " and ": " separators, non-ASCII as \uXXXX),
 * so our replies to reference searchers are byte-for-byte what a reference server would send. Key order is kept.
 */
export function pythonJsonObject(fields: ReadonlyArray<readonly [string, PythonJsonValue]>): string {
  const parts = fields.map(([key, value]) => {
    const text = typeof value === 'string' ? asciiString(value) : JSON.stringify(value);
    return `${asciiString(key)}: ${text}`;
  });
  return `{${parts.join(', ')}}`;
}

function isCount(value: unknown, max: number): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 && value <= max;
}

function encodeReply(fields: ReadonlyArray<readonly [string, PythonJsonValue]>): Uint8Array {
  return encoder.encode(DISCOVERY.MAGIC + pythonJsonObject(fields));
}

/**
 * Builds a reply, shortening the longer of `name` and `game` (by whole characters) until the datagram fits
 * the 512 bytes the reference reads; escaped non-ASCII can take 12 bytes per character.
 */
function fitTexts(name: string, game: string, build: (name: string, game: string) => Uint8Array): Uint8Array {
  let nameChars = Array.from(cleanDisplayText(name, DISCOVERY.MAX_NAME_CHARS));
  let gameChars = Array.from(cleanDisplayText(game, DISCOVERY.MAX_NAME_CHARS));
  let datagram = build(nameChars.join(''), gameChars.join(''));
  while (datagram.length > DISCOVERY.MAX_DATAGRAM_BYTES && nameChars.length + gameChars.length > 0) {
    if (gameChars.length > nameChars.length) gameChars = gameChars.slice(0, -1);
    else nameChars = nameChars.slice(0, -1);
    datagram = build(nameChars.join(''), gameChars.join(''));
  }
  return datagram;
}

/** The reference's reply, byte for byte: `GALEDISC1{"name": ..., "port": ..., "player_count": ...}`. */
export function buildReferenceReply(advert: Pick<DiscoveryAdvert, 'name' | 'port' | 'playerCount'>): Uint8Array {
  return fitTexts(advert.name, '', (name) =>
    encodeReply([
      ['name', name],
      ['port', advert.port],
      ['player_count', advert.playerCount],
    ]),
  );
}

/** The reference reply plus LAN Party's fields, which reference searchers ignore. */
export function buildRichReply(advert: DiscoveryAdvert): Uint8Array {
  const build = (hostName: string): Uint8Array =>
    fitTexts(advert.name, advert.gameName ?? '', (name, game) => {
      const fields: Array<readonly [string, PythonJsonValue]> = [
        ['name', name],
        ['port', advert.port],
        ['player_count', advert.playerCount],
        ['protocol', advert.protocolVersion ?? DISCOVERY.PROTOCOL_VERSION],
      ];
      if (advert.capacity !== undefined) fields.push(['capacity', advert.capacity]);
      if (advert.passwordProtected !== undefined) fields.push(['password', advert.passwordProtected]);
      if (advert.gameName !== undefined) fields.push(['game', game]);
      if (advert.hostName !== undefined && hostName !== '') fields.push(['host_player', hostName]);
      if (advert.instanceId !== undefined) fields.push(['id', advert.instanceId]);
      if (advert.nonce !== undefined) fields.push(['nonce', advert.nonce]);
      if (advert.inRound !== undefined) fields.push(['round', advert.inRound]);
      if (advert.lobbyProtocol !== undefined) fields.push(['lobby', advert.lobbyProtocol]);
      if (advert.appVersion !== undefined) fields.push(['app', cleanDisplayText(advert.appVersion, MAX_VERSION_CHARS)]);
      return encodeReply(fields);
    });
  // The host's name is a nicety: a reply that only fits without it drops it before the room's name is cut.
  const hostName = cleanDisplayText(advert.hostName ?? '', DISCOVERY.MAX_NAME_CHARS);
  const plain = build('');
  if (hostName === '') return plain;
  const hostBytes = encoder.encode(`, ${asciiString('host_player')}: ${asciiString(hostName)}`).length;
  return plain.length + hostBytes <= DISCOVERY.MAX_DATAGRAM_BYTES ? build(hostName) : plain;
}

/**
 * Reads a reply (or announcement). Returns undefined for anything malformed, oversized or not reply-shaped:
 * never throws. Required fields must be valid; an invalid optional field is left out rather than failing the reply.
 */
export function parseDiscoveryReply(datagram: Uint8Array): DiscoveryAdvert | undefined {
  if (datagram.length > DISCOVERY.MAX_DATAGRAM_BYTES || !hasDiscoveryMagic(datagram)) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(strictDecoder.decode(datagram.subarray(DISCOVERY.MAGIC.length)));
  } catch {
    return undefined;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const fields = body as Record<string, unknown>;
  const { name, port, player_count: playerCount } = fields;
  if (typeof name !== 'string' || !isCount(port, 65535) || port === 0 || !isCount(playerCount, 1_000_000)) {
    return undefined;
  }
  const advert: { -readonly [K in keyof DiscoveryAdvert]: DiscoveryAdvert[K] } = {
    name: cleanDisplayText(name, DISCOVERY.MAX_NAME_CHARS),
    port,
    playerCount,
  };
  if (isCount(fields.protocol, 1_000_000) && fields.protocol > 0) advert.protocolVersion = fields.protocol;
  if (isCount(fields.capacity, 1_000_000)) advert.capacity = fields.capacity;
  if (typeof fields.password === 'boolean') advert.passwordProtected = fields.password;
  if (typeof fields.game === 'string') advert.gameName = cleanDisplayText(fields.game, DISCOVERY.MAX_NAME_CHARS);
  if (typeof fields.host_player === 'string') {
    const hostName = cleanDisplayText(fields.host_player, DISCOVERY.MAX_NAME_CHARS);
    if (hostName !== '') advert.hostName = hostName;
  }
  if (isValidInstanceId(fields.id)) advert.instanceId = fields.id;
  if (isCount(fields.nonce, 0xffffffff)) advert.nonce = fields.nonce;
  if (typeof fields.round === 'boolean') {
    advert.inRound = fields.round;
    // One field on the wire says whether a round is on; the LAN list reads it as the room's activity.
    advert.state = fields.round ? 'playing' : 'lobby';
  }
  if (isCount(fields.lobby, 1_000_000) && fields.lobby > 0) advert.lobbyProtocol = fields.lobby;
  if (typeof fields.app === 'string') advert.appVersion = cleanDisplayText(fields.app, MAX_VERSION_CHARS);
  return advert;
}
