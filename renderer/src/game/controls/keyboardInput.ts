import type { KeyboardControls } from './keyboardControls';

/**
 * Feeds `controls` from key events on `target` (the focused game area). Game keys do not scroll the page; modified
 * keys (Ctrl+W …) are left to the browser; losing focus or the window releases every key, since their key-ups will
 * not arrive. Returns the function that detaches the listeners.
 */
export function bindKeyboard(target: HTMLElement, controls: KeyboardControls): () => void {
  const down = (event: KeyboardEvent): void => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (controls.press(event.code, event.repeat)) event.preventDefault();
  };
  const up = (event: KeyboardEvent): void => {
    if (controls.release(event.code)) event.preventDefault();
  };
  const release = (): void => controls.releaseAll();
  const hidden = (): void => {
    if (document.visibilityState === 'hidden') controls.releaseAll();
  };
  target.addEventListener('keydown', down);
  target.addEventListener('keyup', up);
  target.addEventListener('blur', release);
  window.addEventListener('blur', release);
  document.addEventListener('visibilitychange', hidden);
  return () => {
    target.removeEventListener('keydown', down);
    target.removeEventListener('keyup', up);
    target.removeEventListener('blur', release);
    window.removeEventListener('blur', release);
    document.removeEventListener('visibilitychange', hidden);
    controls.releaseAll();
  };
}
