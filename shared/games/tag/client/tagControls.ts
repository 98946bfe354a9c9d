import { directionButtons, heldAxis, type GameControls } from '../../gameControls';
import type { ClientControls } from './clientView';

/** Tag's controls: move while WASD or the arrows are held, Space (or the pad's Tag button) tags, once per press. */
export const tagControls: GameControls<ClientControls> = {
  buttons: [...directionButtons('hold'), { id: 'tag', label: 'Tag', keys: ['Space'], mode: 'press', slot: 'action' }],
  read: (state) => ({
    moveX: heldAxis(state, 'left', 'right'),
    moveY: heldAxis(state, 'up', 'down'),
    tag: state.pressed.has('tag'),
  }),
};
