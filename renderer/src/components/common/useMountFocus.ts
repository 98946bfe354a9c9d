import { useEffect, useRef } from 'react';

/**
 * A ref for a screen's heading (give it tabIndex={-1}) that takes focus when the screen mounts, so keyboard and
 * screen-reader users land at the top of the new screen; unless something on it already took focus (an
 * autofocused field), which is where they want to be.
 */
export function useMountFocus<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  useEffect(() => {
    const active = document.activeElement;
    if (active && active !== document.body && active.isConnected) return;
    ref.current?.focus({ preventScroll: true });
  }, []);
  return ref;
}
