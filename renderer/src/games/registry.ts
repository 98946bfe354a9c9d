import { GAMES } from '../../../shared/games/registry';
import type { GameRendererModule } from '../game/gameRenderer';
import { createRendererRegistry } from '../game/rendererRegistry';
import { lightCyclesRenderer } from './light-cycles/lightCyclesRenderer';
import { tagRenderer } from './tag/tagRenderer';

/** The renderer module of every game in shared/games/registry.ts, under the same id. A new game adds its own here. */
export const GAME_RENDERERS = createRendererRegistry<GameRendererModule>([tagRenderer, lightCyclesRenderer], GAMES);
