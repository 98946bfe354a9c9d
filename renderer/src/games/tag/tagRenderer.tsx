import type { ClientControls, ViewFrame } from '../../../../shared/games/tag/client/clientView';
import { tagGame } from '../../../../shared/games/tag/tagGame';
import type { GameRendererModule } from '../../game/gameRenderer';
import { ArenaRenderer } from './arenaRenderer';
import { GameHud } from './GameHud';
import { CountdownOverlay } from './CountdownOverlay';
import { CONNECTING_HUD, hudOf, sameHud, type HudState } from './hudModel';
import { Scoreboard } from './Scoreboard';
import './tagHud.css';

/** Tag in the renderer: the arena and its players on the canvas, the "it" HUD, the scoreboard, the controls. */
export const tagRenderer: GameRendererModule<ClientControls, ViewFrame, HudState> = {
  id: tagGame.id,
  game: tagGame,
  createRenderer: (canvas) => new ArenaRenderer(canvas, tagGame.arena),
  hud: (frame, look) => (frame === null ? CONNECTING_HUD : hudOf(frame, look)),
  sameHud,
  selfPosition: (frame) => frame?.players.find((p) => p.self),
  renderHud: (hud) => <GameHud hud={hud} />,
  renderSide: (hud) => <Scoreboard rows={hud.rows} />,
  renderOverlay: (hud) => <CountdownOverlay hud={hud} />,
  renderHelp: () => (
    <p>
      <kbd>W</kbd> <kbd>A</kbd> <kbd>S</kbd> <kbd>D</kbd> or arrow keys to move. <kbd>Space</kbd> to tag when you are
      “it”. Stay away from whoever is it: your score is the time you spend not being it.
    </p>
  ),
};
