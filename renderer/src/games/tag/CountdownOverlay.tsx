import type { HudState } from './hudModel';

/**
 * The round's 3-2-1 over the arena: the number, who is IT ("You are IT" for that player) with the IT badge, and
 * what to do. Visual only: the HUD's live region says the same to screen readers.
 */
export function CountdownOverlay({ hud }: { hud: HudState }) {
  if (hud.countdown <= 0 || hud.it === null) return null;
  const self = hud.rows.find((r) => r.self);
  const hint = hud.it.self
    ? 'Chase the others: Space tags anyone within reach.'
    : self === undefined
      ? 'The round is about to start.'
      : 'Run! Every second you are not IT scores.';
  return (
    <div className="game-countdown" data-testid="game-countdown" aria-hidden="true">
      <div className={hud.it.self ? 'countdown-card is-it' : 'countdown-card'}>
        <span className="countdown-number" data-testid="countdown-number" key={hud.countdown}>
          {hud.countdown}
        </span>
        <p className="countdown-who" data-testid="countdown-who">
          {/* The first snapshot can come a moment before the roster: no "Player 0 is IT" headline meanwhile. */}
          {hud.it.self ? 'You are ' : hud.it.unnamed ? 'Someone is ' : `${hud.it.name} is `}
          <span className="countdown-it">IT</span>
        </p>
        <p className="countdown-hint">{hint}</p>
      </div>
    </div>
  );
}
