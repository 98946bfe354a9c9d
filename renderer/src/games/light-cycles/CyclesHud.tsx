import { formatClock } from '../../game/formatClock';
import type { CyclesHudState } from './cyclesHud';

/** The bar above the grid: the round timer, how many cycles still ride, and the local rider's state. */
export function CyclesHud({ hud }: { hud: CyclesHudState }) {
  const self = hud.rows.find((r) => r.self);
  const status =
    hud.phase === 'connecting'
      ? 'Connecting…'
      : hud.phase === 'ended'
        ? 'Round over'
        : hud.countdown > 0
          ? 'Get ready: pick your heading'
          : self === undefined
            ? 'Watching'
            : self.alive
              ? 'Riding: turn with the arrows'
              : 'Crashed: watch the others';
  return (
    <div className="game-hud">
      <div className="game-timer" role="timer" aria-label="Time left" data-testid="game-timer">
        {hud.phase === 'connecting' ? '–:––' : formatClock(hud.secondsLeft)}
      </div>
      <div className="cycles-riding" data-testid="cycles-riding">
        <strong>{hud.riding}</strong> of {hud.rows.length} cycles riding
      </div>
      <div className={`cycles-self${self?.alive === false ? ' is-out' : ''}`} data-testid="cycles-self">
        {status}
      </div>
      <p className="visually-hidden" aria-live="polite">
        {hud.countdown > 0 ? `Round starts in ${hud.countdown}.` : self?.alive === false ? 'You crashed.' : ''}
      </p>
    </div>
  );
}

/** The riders beside the grid: who still rides, who crashed, and how long each has ridden. */
export function RiderList({ hud }: { hud: CyclesHudState }) {
  return (
    <section className="scoreboard" aria-label="Riders">
      <h2>Riders</h2>
      {hud.rows.length === 0 ? (
        <p className="scoreboard-empty">Waiting for the first snapshot…</p>
      ) : (
        <ol>
          {hud.rows.map((row) => (
            <li key={row.id} className={`score-row${row.self ? ' is-self' : ''}${row.alive ? '' : ' is-out'}`}>
              <span className="score-dot" style={{ background: row.colour }} aria-hidden="true" />
              <span className="score-name">
                {row.name}
                {row.self && <span className="score-you"> (you)</span>}
              </span>
              <span className="rider-state">{row.alive ? 'riding' : 'crashed'}</span>
              <span className="score-value">{row.survived.toFixed(1)} s</span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

/** The 3-2-1 over the grid (visual only: the HUD's live region says it to screen readers). */
export function CyclesCountdown({ hud }: { hud: CyclesHudState }) {
  if (hud.countdown <= 0 || hud.phase !== 'playing') return null;
  return (
    <div className="cycles-countdown" data-testid="game-countdown" aria-hidden="true">
      <div className="cycles-countdown-card">
        <span className="cycles-countdown-number">{hud.countdown}</span>
        <p>Arrow keys or WASD turn your cycle. Last one riding wins.</p>
      </div>
    </div>
  );
}
