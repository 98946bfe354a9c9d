import { formatClock } from '../../game/formatClock';
import type { HudState } from './hudModel';

/** What a screen reader hears when "it" changes or the round starts. */
function announcement(hud: HudState): string {
  if (hud.phase === 'connecting') return 'Connecting to the game…';
  if (hud.it === null) return '';
  const who = hud.it.self ? 'You are it! Tag someone.' : `${hud.it.name} is it.`;
  return hud.countdown > 0 ? `Round starts in ${hud.countdown}. ${who}` : who;
}

/** The bar above the arena: round timer, who is "it", and the local player's tag readiness. */
export function GameHud({ hud }: { hud: HudState }) {
  const self = hud.rows.find((r) => r.self);
  const urgent = hud.phase === 'playing' && hud.secondsLeft <= 10;
  return (
    <div className="game-hud">
      <div
        className={`game-timer${urgent ? ' is-urgent' : ''}`}
        role="timer"
        aria-label="Time left"
        data-testid="game-timer"
      >
        {hud.phase === 'connecting' ? '–:––' : formatClock(hud.secondsLeft)}
      </div>
      <div className="game-it" data-testid="game-it">
        {hud.it === null ? (
          <span className="game-it-waiting">{hud.phase === 'connecting' ? 'Connecting…' : 'Waiting…'}</span>
        ) : (
          <>
            <span className="score-dot" style={{ background: hud.it.colour }} aria-hidden="true" />
            <strong>{hud.it.self ? 'You are' : `${hud.it.name} is`}</strong>
            <span className="game-it-badge">IT</span>
          </>
        )}
      </div>
      <div className="game-self">
        {self === undefined ? null : hud.phase === 'ended' ? (
          <span className="game-tag">Round over</span>
        ) : hud.countdown > 0 ? (
          <span className="game-tag">Get ready…</span>
        ) : self.it ? (
          <span className={hud.cooldown > 0 ? 'game-tag cooling' : 'game-tag ready'}>
            {hud.cooldown > 0 ? `Tag in ${hud.cooldown.toFixed(1)} s` : 'Tag ready: Space'}
          </span>
        ) : (
          <span className="game-tag run">Run! {self.score.toFixed(1)} s</span>
        )}
      </div>
      <p className="visually-hidden" aria-live="polite">
        {announcement(hud)}
      </p>
    </div>
  );
}
