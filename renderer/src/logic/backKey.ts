/** The parts of a keyboard event that decide whether it means "back". */
export interface BackKeyEvent {
  readonly key: string;
  readonly defaultPrevented: boolean;
  readonly isComposing: boolean;
  readonly repeat: boolean;
  readonly altKey: boolean;
  readonly ctrlKey: boolean;
  readonly metaKey: boolean;
  readonly shiftKey: boolean;
}

/**
 * Whether a key press on a sub-screen means "back to home": a plain Escape that nothing else handled (an input
 * method closing its candidate list, or a widget that already used the Escape, must not also leave the screen).
 */
export function isBackKey(event: BackKeyEvent): boolean {
  return (
    event.key === 'Escape' &&
    !event.defaultPrevented &&
    !event.isComposing &&
    !event.repeat &&
    !event.altKey &&
    !event.ctrlKey &&
    !event.metaKey &&
    !event.shiftKey
  );
}
