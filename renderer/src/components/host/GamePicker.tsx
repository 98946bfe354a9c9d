import type { GameDefinition } from '../../../../shared/games/gameDefinition';
import { roomCapacityRange } from '../../../../shared/ipc/schemas/lobby';
import '../../styles/gamePicker.css';

/** "2–16 players" for a game's room sizes. */
export function playerLimitsText(game: Pick<GameDefinition, 'minPlayers' | 'maxPlayers'>): string {
  const { min, max } = roomCapacityRange(game);
  return min === max ? `${min} players` : `${min}–${max} players`;
}

/**
 * The host form's choice of game: one radio card per registered game with its name, player limits and a line on
 * how it plays. Only the name labels the radio (the rest describes it), so the card reads "Tag, radio button,
 * 2–16 players …" and no other field's label is matched by its text.
 */
export function GamePicker({
  games,
  value,
  onChange,
}: {
  games: readonly Pick<GameDefinition, 'id' | 'name' | 'description' | 'minPlayers' | 'maxPlayers'>[];
  value: string;
  onChange: (gameId: string) => void;
}) {
  return (
    <fieldset className="field game-field">
      <legend className="field-label">Game</legend>
      <div className="game-cards">
        {games.map((game) => {
          const inputId = `room-game-${game.id}`;
          const aboutId = `${inputId}-about`;
          return (
            <div key={game.id} className={game.id === value ? 'game-card is-selected' : 'game-card'}>
              <input
                id={inputId}
                className="game-card-radio"
                type="radio"
                name="room-game"
                value={game.id}
                checked={game.id === value}
                aria-describedby={aboutId}
                onChange={() => onChange(game.id)}
              />
              <label htmlFor={inputId} className="game-card-name">
                {game.name}
              </label>
              <p id={aboutId} className="game-card-about">
                <span className="game-card-limits">{playerLimitsText(game)}</span>
                <span className="game-card-description">{game.description}</span>
              </p>
            </div>
          );
        })}
      </div>
    </fieldset>
  );
}
