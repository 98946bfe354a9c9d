import unhomoglyph from 'unhomoglyph';

/**
 * What a name looks like, for telling look-alikes apart: the Unicode TR39 skeleton (NFD, each confusable
 * character replaced by its prototype from Unicode's confusables.txt, NFD again), lower-cased, so "Аlice"
 * (Cyrillic А), "AIice" (capital I) and "alice" share one. Expects text already through normalizeText.
 */
export function nameSkeleton(name: string): string {
  return unhomoglyph(name.normalize('NFD')).normalize('NFD').toLowerCase();
}
