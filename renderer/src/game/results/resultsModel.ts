import type { GameResultsPayload } from '../../../../shared/ipc/schemas/game';
import type { GameResultsWording } from '../../../../shared/games/gameResultsWording';
import type { PlayerLook } from '../playerLook';

/** One line of the winner screen. */
export interface ResultRow {
  /** 1-based; tied scores share a rank. */
  readonly rank: number;
  readonly id: string;
  readonly name: string;
  readonly colour: string;
  readonly score: number;
  /** The game's count stat (tag: tags made). */
  readonly stat: number;
  readonly winner: boolean;
  readonly self: boolean;
}

/** The winner screen's content. */
export interface ResultsView {
  /** "Ada wins!", "Ada and Bo tie!", "You win!" or why the round stopped. */
  readonly headline: string;
  readonly rows: readonly ResultRow[];
  /** Whether the local player is among the winners. */
  readonly youWon: boolean;
  /** Seconds the room shows the results (the host's hold, sent with them): the countdown's start. */
  readonly holdSeconds: number;
}

function joinNames(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? '';
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/** Builds the winner screen from results, the roster's looks, the local player's id and the game's own headline. */
export function resultsView(
  results: GameResultsPayload,
  look: (id: string) => PlayerLook,
  you: string,
  headlineOf?: GameResultsWording['headline'],
): ResultsView {
  const winners = new Set(results.winners);
  const sorted = results.scores
    .map((s, order) => ({ s, order }))
    .sort((a, b) => b.s.score - a.s.score || b.s.stat - a.s.stat || a.order - b.order);
  let rank = 0;
  let previous: number | undefined;
  const rows = sorted.map(({ s }, i): ResultRow => {
    if (s.score !== previous) rank = i + 1;
    previous = s.score;
    return {
      rank,
      id: s.id,
      ...look(s.id),
      score: s.score,
      stat: s.stat,
      winner: winners.has(s.id),
      self: s.id === you,
    };
  });
  const youWon = winners.has(you);
  const winnerNames = results.winners.map((id) => (id === you ? 'You' : look(id).name));
  let headline: string;
  if (results.reason === 'abandoned') headline = 'Round abandoned: too few players left';
  else if (winnerNames.length === 0) headline = 'Round over';
  else if (headlineOf !== undefined) headline = headlineOf(winnerNames, youWon);
  else if (winnerNames.length === 1) headline = youWon ? 'You win!' : `${winnerNames[0]} wins!`;
  else headline = `${joinNames(winnerNames)} tie!`;
  return { headline, rows, youWon, holdSeconds: results.holdSeconds };
}
