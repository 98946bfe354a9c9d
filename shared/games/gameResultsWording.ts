/** What the winner screen says about a game's standings (tag: "12.3 s" of "time not it", "3 tags"). */
export interface GameResultsWording {
  /** What the score measures, named beside it (tag: "time not it"), so a bare number is never shown. */
  readonly scoreMeasure: string;
  formatScore(score: number): string;
  formatStat(stat: number): string;
  /**
   * The headline for a finished round with winners (their names, "You" for the local player), if the game words
   * it its own way; without it: "You win!", "Ada wins!", "Ada and Bo tie!".
   */
  headline?(winners: readonly string[], youWon: boolean): string;
}
