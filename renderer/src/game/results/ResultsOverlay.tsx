import { useEffect, useState } from 'react';
import type { GameResultsWording } from '../../../../shared/games/gameResultsWording';
import type { ResultsView } from './resultsModel';

/** What the winner screen offers: everyone goes back to the lobby, the host may also play the same game again. */
export interface ResultsActions {
  /** The host: the same game again with the same players. */
  readonly playAgain?: () => void;
  /** The host ends the results for everyone; a guest leaves them for the lobby view. */
  readonly backToLobby: () => void;
}

/** Whole seconds left of the results hold, counted down from when the winner screen appeared. */
function useCountdown(seconds: number): number {
  const [left, setLeft] = useState(seconds);
  useEffect(() => {
    const started = Date.now();
    const timer = setInterval(() => {
      const next = Math.max(0, seconds - Math.floor((Date.now() - started) / 1000));
      setLeft(next);
      if (next === 0) clearInterval(timer);
    }, 250);
    return () => clearInterval(timer);
  }, [seconds]);
  return left;
}

/** The winner screen over the game: it counts down to the room's return to the lobby, and offers the way back now. */
export function ResultsOverlay({
  view,
  wording,
  actions,
}: {
  view: ResultsView;
  /** The game's way of showing a score and a stat, and what the score measures (its definition's `results`). */
  wording: GameResultsWording;
  readonly actions?: ResultsActions;
}) {
  const { scoreMeasure } = wording;
  const left = useCountdown(Math.round(view.holdSeconds));
  return (
    <div className="game-overlay results" role="dialog" aria-modal="false" aria-labelledby="results-title">
      <div className="results-card">
        {/* The measure is named once up here (rows are narrow in a small arena), and in each row for screen readers. */}
        <p className="results-kicker">
          Round over <span aria-hidden="true">· score: {scoreMeasure}</span>
        </p>
        <h2 id="results-title" className={view.youWon ? 'results-title you-won' : 'results-title'}>
          {view.headline}
        </h2>
        <ol className="results-list">
          {view.rows.map((row) => (
            <li key={row.id} className={`results-row${row.winner ? ' is-winner' : ''}${row.self ? ' is-self' : ''}`}>
              <span className="results-rank">{row.rank}</span>
              <span className="score-dot" style={{ background: row.colour }} aria-hidden="true" />
              <span className="results-name">
                {row.name}
                {row.self && <span className="score-you"> (you)</span>}
                {/* The headline names the winner; the row is marked by its colour, and told to screen readers. */}
                {row.winner && <span className="visually-hidden">, winner</span>}
              </span>
              <span className="results-stat">{wording.formatStat(row.stat)}</span>
              <span className="results-score">
                {wording.formatScore(row.score)}
                <span className="visually-hidden"> {scoreMeasure}</span>
              </span>
            </li>
          ))}
        </ol>
        <div className="results-footer">
          <p className="results-back" role="timer" aria-live="off" data-testid="results-countdown">
            {left > 0 ? `Back to the lobby in ${left} s` : 'Back to the lobby…'}
          </p>
          {actions && (
            <div className="results-actions">
              {actions.playAgain && (
                <button type="button" className="button button-primary" onClick={actions.playAgain}>
                  Play again
                </button>
              )}
              <button
                type="button"
                className={actions.playAgain ? 'button button-ghost' : 'button button-primary'}
                onClick={actions.backToLobby}
              >
                Back to the lobby
              </button>
            </div>
          )}
        </div>
      </div>
    </div>
  );
}
