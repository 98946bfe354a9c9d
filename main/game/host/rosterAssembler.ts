import type { GameRoster, RosterEntry, RosterPayload } from '../../../shared/game/gameProtocol';

/**
 * Joins `game.roster` parts back into one roster. Parts travel on RELIABLE_ORDERED, so they arrive complete and in
 * order; a part out of sequence (e.g. the listener started mid-roster) discards the partial list until the next part 0.
 */
export class RosterAssembler {
  private game: number | undefined;
  private expected = 0;
  private collected: RosterEntry[] = [];

  /** Adds a validated part; returns the roster when it was the last one. */
  add(part: RosterPayload): GameRoster | undefined {
    if (part.part === 0) {
      this.game = part.g;
      this.expected = 0;
      this.collected = [];
    }
    if (part.g !== this.game || part.part !== this.expected) {
      this.game = undefined;
      return undefined;
    }
    this.collected.push(...part.p.map(([id, name, colour]) => ({ id, name, colour })));
    this.expected += 1;
    if (this.expected < part.parts) return undefined;
    const roster: GameRoster = { game: part.g, players: this.collected };
    this.game = undefined;
    this.collected = [];
    return roster;
  }
}
