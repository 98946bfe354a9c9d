import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../scripts/architecture/projectCruise';

// .ci/run runs npm test's steps itself (the checks side by side); the two must not drift apart.
const ciRun = readFileSync(join(PROJECT_ROOT, '.ci/run'), 'utf8');
const scripts = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')).scripts as Record<string, string>;

describe('.ci/run', () => {
  it('runs every step of npm test before the tests, then vitest with the labs and browser tests busy', () => {
    const steps = [...scripts.test!.matchAll(/npm run ([\w:]+)/g)].map((m) => m[1]);
    expect(scripts.test).toMatch(/&& vitest run$/);
    const loop = /^for step in (.+); do$/m.exec(ciRun);
    expect(loop?.[1]?.split(' ')).toEqual(steps);
    const lastCommand = ciRun.trim().split('\n').at(-1);
    expect(lastCommand).toBe('LAN_PARTY_BUSY=lab,e2e npx vitest run');
  });

  it('stops on a failed step and starts the clock for the summary line', () => {
    expect(ciRun).toContain('set -euo pipefail');
    expect(ciRun).toMatch(/for pid in "\$\{pids\[@\]\}"; do wait "\$pid"; done/);
    expect(ciRun).toMatch(/^export LAN_PARTY_CI_STARTED$/m);
  });
});
