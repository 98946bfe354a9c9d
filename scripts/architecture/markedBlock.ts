/** The lines around the generated picture in docs/architecture.md. */
export const GRAPH_MARKERS = {
  start: '<!-- architecture-graph:start — written by `npm run docs:graph`, do not edit by hand -->',
  end: '<!-- architecture-graph:end -->',
} as const;

/** A start and an end line that enclose a generated block. */
export interface Markers {
  readonly start: string;
  readonly end: string;
}

function bounds(doc: string, markers: Markers): { from: number; to: number } {
  const start = doc.indexOf(markers.start);
  const end = doc.indexOf(markers.end);
  if (start < 0 || end < 0) throw new Error(`the document lacks the marker ${start < 0 ? markers.start : markers.end}`);
  if (doc.indexOf(markers.start, start + 1) >= 0 || doc.indexOf(markers.end, end + 1) >= 0)
    throw new Error('the document holds a marker twice');
  if (end < start) throw new Error('the end marker comes before the start marker');
  return { from: start + markers.start.length, to: end };
}

/** The text between the markers, without the blank lines next to them. */
export function readMarkedBlock(doc: string, markers: Markers): string {
  const { from, to } = bounds(doc, markers);
  return doc.slice(from, to).replace(/^\n+/, '').replace(/\n+$/, '');
}

/**
 * The document with the text between the markers replaced by `block`, set off by blank lines as Prettier
 * formats Markdown (so `npm run format` and `npm run docs:graph` agree).
 */
export function replaceMarkedBlock(doc: string, markers: Markers, block: string): string {
  const { from, to } = bounds(doc, markers);
  return `${doc.slice(0, from)}\n\n${block.replace(/^\n+/, '').replace(/\n+$/, '')}\n\n${doc.slice(to)}`;
}
