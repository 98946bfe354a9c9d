import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';

// shared/ runs in the renderer and in main: the lint rule must reject Node and DOM globals. Its imports
// (Node built-ins, Electron, React) are dependency-cruiser's: tests/architecture/boundaries.test.ts.
const eslint = new ESLint({ cwd: process.cwd() });

async function lintShared(code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: 'shared/__probe__.ts' });
  return (result?.messages ?? []).map((m) => m.ruleId ?? m.message);
}

describe('shared/ purity rule', () => {
  it.each([
    ['export const w = window.innerWidth;'],
    ['export const d = document.title;'],
    ['export const p = process.pid;'],
  ])('rejects the global in %s', async (code) => {
    expect(await lintShared(code)).toContain('no-restricted-globals');
  });

  it('accepts pure code', async () => {
    expect(await lintShared("import { Channel } from './net/channel';\nexport const c = Channel.UNRELIABLE;")).toEqual(
      [],
    );
  });

  it('passes on every file in shared/', async () => {
    const results = await eslint.lintFiles(['shared/**/*.ts']);
    expect(results.length).toBeGreaterThan(0);
    expect(results.flatMap((r) => r.messages.map((m) => `${r.filePath}: ${m.message}`))).toEqual([]);
  });
});
