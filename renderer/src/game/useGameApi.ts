import { useEffect, useState } from 'react';
import type { GameApi } from './gameApi';
import { openGameApi } from './openGameApi';

/** The game API to use: the one passed in, else a link of the stage's own (closed on unmount). */
export function useGameApi(given: GameApi | undefined): { api: GameApi | null; error: string | null } {
  const [own, setOwn] = useState<{ api: GameApi | null; error: string | null }>({ api: null, error: null });
  useEffect(() => {
    if (given !== undefined) return;
    let close: (() => void) | undefined;
    let alive = true;
    openGameApi(window).then(
      (link) => {
        if (!alive) return link.close();
        close = link.close;
        setOwn({ api: link.api, error: null });
      },
      (error: unknown) => alive && setOwn({ api: null, error: `Could not reach the game: ${String(error)}` }),
    );
    return () => {
      alive = false;
      close?.();
    };
  }, [given]);
  return given !== undefined ? { api: given, error: null } : own;
}
