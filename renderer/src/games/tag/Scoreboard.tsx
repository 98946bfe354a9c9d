import type { ScoreRow } from './hudModel';

/** Everyone's score (seconds not "it"), best first; "it" and the local player marked. */
export function Scoreboard({ rows }: { rows: readonly ScoreRow[] }) {
  return (
    <section className="scoreboard" aria-label="Scores">
      <h2>Scores</h2>
      {rows.length === 0 ? (
        <p className="scoreboard-empty">Waiting for the first snapshot…</p>
      ) : (
        <ol>
          {rows.map((row) => (
            <li key={row.id} className={`score-row${row.self ? ' is-self' : ''}${row.it ? ' is-it' : ''}`}>
              <span className="score-dot" style={{ background: row.colour }} aria-hidden="true" />
              <span className="score-name">
                {row.name}
                {row.self && <span className="score-you"> (you)</span>}
              </span>
              {row.it && <span className="score-it">IT</span>}
              <span className="score-value">{row.score.toFixed(1)} s</span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
