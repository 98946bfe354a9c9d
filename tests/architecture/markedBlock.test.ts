import { describe, expect, it } from 'vitest';
import { GRAPH_MARKERS, readMarkedBlock, replaceMarkedBlock } from '../../scripts/architecture/markedBlock';

const markers = { start: '<!-- s -->', end: '<!-- e -->' };
const doc = '# Title\n\n<!-- s -->\nold\nlines\n<!-- e -->\n\nafter\n';

describe('marked block', () => {
  it('reads the text between the markers', () => {
    expect(readMarkedBlock(doc, markers)).toBe('old\nlines');
  });

  it('replaces only the text between the markers, set off by blank lines, and reads back what it wrote', () => {
    const next = replaceMarkedBlock(doc, markers, 'new\n');
    expect(next).toBe('# Title\n\n<!-- s -->\n\nnew\n\n<!-- e -->\n\nafter\n');
    expect(readMarkedBlock(next, markers)).toBe('new');
    expect(replaceMarkedBlock(next, markers, '\nnew\n\n')).toBe(next);
  });

  it('fills an empty block', () => {
    expect(replaceMarkedBlock('<!-- s -->\n<!-- e -->\n', markers, 'x')).toBe('<!-- s -->\n\nx\n\n<!-- e -->\n');
    expect(readMarkedBlock('<!-- s -->\n<!-- e -->', markers)).toBe('');
  });

  it('rejects a document without both markers, with a marker twice, or with them swapped', () => {
    expect(() => readMarkedBlock('no markers', markers)).toThrow('lacks the marker <!-- s -->');
    expect(() => readMarkedBlock('<!-- s -->', markers)).toThrow('lacks the marker <!-- e -->');
    expect(() => replaceMarkedBlock(`${doc}<!-- s -->`, markers, 'x')).toThrow('marker twice');
    expect(() => readMarkedBlock('<!-- e -->\n<!-- s -->', markers)).toThrow('before the start');
  });

  it('uses markers that say how the block is made', () => {
    expect(GRAPH_MARKERS.start).toContain('npm run docs:graph');
    expect(GRAPH_MARKERS.start).not.toBe(GRAPH_MARKERS.end);
  });
});
