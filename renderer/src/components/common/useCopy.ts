import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';

/** What the last press of one of a group's copy buttons did: copied its text, or selected it for Ctrl+C. */
export type CopyOutcome<K extends string> = { key: K; how: 'copied' | 'selected' } | null;

/** How long an outcome stays on the button: a selection longer, as the player still has to press Ctrl+C. */
const SHOWN_MS = { copied: 2500, selected: 8000 } as const;

/** Selects an element's text, so Ctrl+C copies it when the clipboard API is refused. */
function selectText(element: HTMLElement): void {
  const selection = window.getSelection();
  if (!selection) return;
  const range = document.createRange();
  range.selectNodeContents(element);
  selection.removeAllRanges();
  selection.addRange(range);
}

/**
 * Copy-to-clipboard for a group of copy buttons (`key` names the button). When the clipboard is refused, the
 * element `selectOnFail` points to is selected instead, after the render that shows it (so an element shown
 * only for the fallback can be the one selected). The outcome clears itself after a few seconds.
 */
export function useCopy<K extends string>(): {
  outcome: CopyOutcome<K>;
  /** Whether button `key` has just copied its text (it shows "Copied"). */
  copied: (key: K) => boolean;
  copy: (key: K, text: string, selectOnFail: RefObject<HTMLElement | null>) => Promise<void>;
} {
  const [outcome, setOutcome] = useState<CopyOutcome<K>>(null);
  const selectRef = useRef<RefObject<HTMLElement | null> | null>(null);

  useEffect(() => {
    if (outcome === null) return;
    const element = outcome.how === 'selected' ? selectRef.current?.current : null;
    if (element) selectText(element);
    const timer = setTimeout(() => setOutcome(null), SHOWN_MS[outcome.how]);
    return () => clearTimeout(timer);
  }, [outcome]);

  const copy = useCallback(async (key: K, text: string, selectOnFail: RefObject<HTMLElement | null>) => {
    try {
      await navigator.clipboard.writeText(text);
      setOutcome({ key, how: 'copied' });
    } catch {
      selectRef.current = selectOnFail;
      setOutcome({ key, how: 'selected' });
    }
  }, []);

  const copied = (key: K): boolean => outcome?.key === key && outcome.how === 'copied';
  return { outcome, copied, copy };
}
