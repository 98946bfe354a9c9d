import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { architectureGraphBlock } from '../../scripts/architecture/architectureGraph';
import { GRAPH_MARKERS, readMarkedBlock } from '../../scripts/architecture/markedBlock';
import { PROJECT_ROOT } from '../../scripts/architecture/projectCruise';

const doc = readFileSync(join(PROJECT_ROOT, 'docs/architecture.md'), 'utf8');

describe('docs/architecture.md', () => {
  it('shows the import graph of the code as it is now (run npm run docs:graph after moving imports)', async () => {
    const block = await architectureGraphBlock();
    expect(block).toMatch(/^```mermaid\nflowchart LR\n[\s\S]+\n```$/);
    expect(readMarkedBlock(doc, GRAPH_MARKERS)).toBe(block);
  }, 60_000); // a cruise parses every file of the app: ~5 s, more on a busy machine

  it('answers the five "where do I add" questions', () => {
    for (const what of ['a channel', 'a screen', 'an IPC call', 'a transport path', 'a game'])
      expect(doc).toContain(`### Where do I add ${what}`);
  });
});
