import { GameMessage } from '../../../../shared/game/gameProtocol';
import type { GameWire } from '../../../../shared/game/gameTypes';
import type { NamedSerializer } from '../binarySerializer';
import { mappedSerializer, type MappedMessage } from './mappedSerializer';

/** What the room codec needs of a registered game: its id and how its per-tick messages travel. */
export interface WiredGame {
  readonly id: string;
  readonly wire: GameWire;
}

/** The room codec's name before the games' fingerprint; bump it when the codec's own framing changes. */
export const ROOM_SERIALIZER_PREFIX = 'lanparty-room.2';

/** FNV-1a (32-bit) of `text`'s code units, 8 hex digits: a name check between two builds, not a secret. */
function fingerprint(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash.toString(16).padStart(8, '0');
}

/** Each binary game's `game.input` and `game.snapshot` formats, under wire types named after the game. */
function messagesOf(games: readonly WiredGame[]): MappedMessage[] {
  return games.flatMap(({ id, wire }) =>
    wire.kind === 'binary'
      ? [
          { type: GameMessage.INPUT, wireType: `${GameMessage.INPUT}/${id}`, format: wire.input },
          { type: GameMessage.SNAPSHOT, wireType: `${GameMessage.SNAPSHOT}/${id}`, format: wire.snapshot },
        ]
      : [],
  );
}

/**
 * The body codec of a room's native links between LAN Party apps, built from the registered games: each game that
 * declares a binary wire has its input and snapshot schema-encoded; a game whose wire is `json`, every other message
 * and any payload a format cannot carry exactly travel as compact JSON. The name carries a fingerprint of every
 * game's id, wire version and fields, so two builds with different games or formats fall back to JSON instead of
 * misreading each other; a peer that does not offer this name (v1 or an older build) gets JSON as before.
 */
export function roomSerializer(games: readonly WiredGame[]): NamedSerializer {
  const described = games.map(({ id, wire }) =>
    wire.kind === 'binary'
      ? `${id}@${wire.version}:${JSON.stringify(wire.input.fields)}:${JSON.stringify(wire.snapshot.fields)}`
      : `${id}:json`,
  );
  const name = `${ROOM_SERIALIZER_PREFIX}-${fingerprint(described.sort().join('|'))}`;
  return mappedSerializer(name, messagesOf(games));
}
