import type { PartGraph } from './partGraph';

/** Boxes drawn inside one frame: main/net inside main, shared/* inside shared; renderer and preload alone. */
const FRAMES = [
  { id: 'frame_main', label: 'main (Electron main process, Node)', root: 'main', parent: null, oneTarget: false },
  { id: 'frame_net', label: 'main/net (transport library)', root: 'main/net', parent: 'frame_main', oneTarget: false },
  // Everything may import shared/: arrows from outside end at the frame, not at each of its parts, or they
  // would be half of the picture. Its inner arrows are still drawn.
  { id: 'frame_shared', label: 'shared (pure TS, both processes)', root: 'shared', parent: null, oneTarget: true },
] as const;

type Frame = (typeof FRAMES)[number];

/** The colour of an arrow that breaks a rule; its import is in the known-violations baseline. */
const RULE_BREAK_STYLE = 'stroke:#d62728,stroke-width:2px';

function nodeId(part: string): string {
  return `p_${part.replace(/[^A-Za-z0-9]/g, '_')}`;
}

/** The innermost frame a part is drawn in: FRAMES lists outer frames first, so the last match wins. */
function frameOf(part: string): Frame | null {
  let found: Frame | null = null;
  for (const frame of FRAMES) if (part === frame.root || part.startsWith(`${frame.root}/`)) found = frame;
  return found;
}

function label(part: string, frame: Frame | null): string {
  if (!frame) return part;
  // The part named like its frame holds the frame's top-level files (main/net/index.ts, errors.ts, ...).
  return part === frame.root ? 'top-level files' : part.slice(frame.root.length + 1);
}

/** An arrow as drawn: between boxes or into a frame drawn as one target. */
interface DrawnEdge {
  readonly from: string;
  readonly to: string;
  typeOnly: boolean;
  breaksRule: boolean;
}

function drawnEdges(graph: PartGraph): DrawnEdge[] {
  const drawn = new Map<string, DrawnEdge>();
  for (const edge of graph.edges) {
    const target = frameOf(edge.to);
    const into = target?.oneTarget && frameOf(edge.from) !== target ? target.id : nodeId(edge.to);
    const key = `${nodeId(edge.from)} ${into}`;
    const seen = drawn.get(key);
    if (seen) {
      seen.typeOnly &&= edge.typeOnly;
      seen.breaksRule ||= edge.breaksRule;
    } else {
      drawn.set(key, { from: nodeId(edge.from), to: into, typeOnly: edge.typeOnly, breaksRule: edge.breaksRule });
    }
  }
  return [...drawn.values()];
}

/**
 * The part graph as a Mermaid flowchart: one box per part inside its frame, a solid arrow for imports that
 * run, a dotted one for type-only imports, red for arrows that break a rule. Same graph, same text.
 */
export function mermaidFlowchart(graph: PartGraph): string {
  const lines = ['flowchart LR'];
  const emitFrame = (parent: string | null, indent: string) => {
    for (const part of graph.parts) {
      const frame = frameOf(part);
      if ((frame?.id ?? null) === parent) lines.push(`${indent}${nodeId(part)}["${label(part, frame)}"]`);
    }
    for (const frame of FRAMES) {
      if (frame.parent !== parent || !graph.parts.some((part) => frameOf(part)?.id === frame.id)) continue;
      lines.push(`${indent}subgraph ${frame.id}["${frame.label}"]`);
      emitFrame(frame.id, `${indent}  `);
      lines.push(`${indent}end`);
    }
  };
  emitFrame(null, '  ');
  const broken: number[] = [];
  drawnEdges(graph).forEach((edge, index) => {
    lines.push(`  ${edge.from} ${edge.typeOnly ? '-.->' : '-->'} ${edge.to}`);
    if (edge.breaksRule) broken.push(index);
  });
  if (broken.length > 0) lines.push(`  linkStyle ${broken.join(',')} ${RULE_BREAK_STYLE}`);
  return `${lines.join('\n')}\n`;
}
