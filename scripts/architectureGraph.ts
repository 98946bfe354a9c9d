// Redraws the folder-level import graph in docs/architecture.md from the code (`npm run docs:graph`).
// tests/architecture/architectureDoc.test.ts fails while the committed picture differs from what this writes.
import { readFileSync, writeFileSync } from 'node:fs';
import { architectureGraphBlock } from './architecture/architectureGraph';
import { GRAPH_MARKERS, replaceMarkedBlock } from './architecture/markedBlock';
import { PROJECT_ROOT } from './architecture/projectCruise';

const docPath = `${PROJECT_ROOT}/docs/architecture.md`;

void (async () => {
  const doc = readFileSync(docPath, 'utf8');
  const next = replaceMarkedBlock(doc, GRAPH_MARKERS, await architectureGraphBlock());
  if (next === doc) {
    process.stdout.write(`${docPath}: the graph is up to date\n`);
  } else {
    writeFileSync(docPath, next);
    process.stdout.write(`${docPath}: graph rewritten\n`);
  }
})().catch((error: unknown) => {
  process.stderr.write(`docs:graph failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
