import type { CyclesControls, CyclesFrame } from '../../../../shared/games/light-cycles/clientView';
import { lightCyclesGame } from '../../../../shared/games/light-cycles/lightCyclesGame';
import { RULES } from '../../../../shared/games/light-cycles/rules';
import type { GameRendererModule } from '../../game/gameRenderer';
import { CyclesCountdown, CyclesHud, RiderList } from './CyclesHud';
import { CONNECTING_CYCLES_HUD, cyclesHudOf, sameCyclesHud, type CyclesHudState } from './cyclesHud';
import { GridRenderer } from './gridRenderer';
import './lightCycles.css';

/** Light cycles in the renderer: the grid and its trails on the canvas, the riders list, the 3-2-1. */
export const lightCyclesRenderer: GameRendererModule<CyclesControls, CyclesFrame, CyclesHudState> = {
  id: lightCyclesGame.id,
  game: lightCyclesGame,
  createRenderer: (canvas) => new GridRenderer(canvas, RULES),
  hud: (frame, look) => (frame === null ? CONNECTING_CYCLES_HUD : cyclesHudOf(frame, look)),
  sameHud: sameCyclesHud,
  // In cells: the tests read the local head's grid position from it.
  selfPosition: (frame) => frame?.cycles.find((c) => c.self),
  renderHud: (hud) => <CyclesHud hud={hud} />,
  renderSide: (hud) => <RiderList hud={hud} />,
  renderOverlay: (hud) => <CyclesCountdown hud={hud} />,
  renderHelp: () => (
    <p>
      <kbd>W</kbd> <kbd>A</kbd> <kbd>S</kbd> <kbd>D</kbd> or arrow keys turn your cycle (one turn per press; two quick
      presses make a U-turn). Walls, trails and other cycles end your ride: the last cycle riding wins.
    </p>
  ),
};
