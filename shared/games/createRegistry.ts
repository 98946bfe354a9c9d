/** What a registry key looks like: lower case letters, digits and dashes, starting with a letter, 1–24 long. */
export const GAME_ID_PATTERN = /^[a-z][a-z0-9-]{0,23}$/;

/** Asked for a game id nobody registered (another LAN Party version's game, or a typo). */
export class UnknownGameError extends Error {
  override name = 'UnknownGameError';
  constructor(
    readonly gameId: string,
    known: readonly string[],
  ) {
    super(`Unknown game “${gameId.slice(0, 64)}”: this LAN Party has ${known.map((id) => `“${id}”`).join(', ')}.`);
  }
}

/** Things looked up by game id: the game definitions (shared) and the renderer modules. */
export interface Registry<T extends { readonly id: string }> {
  /** Registered ids, in registration order. */
  readonly ids: readonly string[];
  /** Everything registered, in registration order. */
  list(): readonly T[];
  has(id: string): boolean;
  /** The entry, or undefined. */
  find(id: string): T | undefined;
  /** The entry; throws {@link UnknownGameError} for an id nobody registered. */
  get(id: string): T;
}

/** A frozen registry of `entries`; throws on a malformed or repeated id, so a bad registration fails at start. */
export function createRegistry<T extends { readonly id: string }>(entries: readonly T[]): Registry<T> {
  const byId = new Map<string, T>();
  for (const entry of entries) {
    if (!GAME_ID_PATTERN.test(entry.id)) throw new RangeError(`game id “${entry.id}” must match ${GAME_ID_PATTERN}`);
    if (byId.has(entry.id)) throw new RangeError(`game id “${entry.id}” is registered twice`);
    byId.set(entry.id, entry);
  }
  const ids = Object.freeze([...byId.keys()]);
  const list = Object.freeze([...byId.values()]);
  return {
    ids,
    list: () => list,
    has: (id) => byId.has(id),
    find: (id) => byId.get(id),
    get(id) {
      const entry = byId.get(id);
      if (entry === undefined) throw new UnknownGameError(id, ids);
      return entry;
    },
  };
}
