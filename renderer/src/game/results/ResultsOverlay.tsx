import type { GameResultsWording } from '../../../../shared/games/gameResultsWording';
import type { ResultsView } from './resultsModel';

/** The winner screen over the game; the room returns to the lobby by itself, the host may go at once. */
export function ResultsOverlay({
  view,
  wording,
  onBackToLobby,
}: {
  view: ResultsView;
  /** The game's way of showing a score and a stat, and what the score measures (its definition's `results`). */
  wording: GameResultsWording;
  /** Only for the host: ends the results hold now. */
  onBackToLobby?: () => void;
}) {
  const { scoreMeasure } = wording;
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
                {row.winner && <span className="results-crown"> · winner</span>}
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
          <p className="results-back" role="status">
            <span className="results-progress" aria-hidden="true" />
            Back to the lobby in a moment…
          </p>
          {onBackToLobby && (
            <button type="button" className="button button-primary" onClick={onBackToLobby}>
              Back to lobby now
            </button>
          )}
        </div>
      </div>
    </div>
  );
}
