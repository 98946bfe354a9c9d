import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../scripts/architecture/projectCruise';

// CI must run exactly the README's test command, with the labs and the browser tests on a busy machine.
const ciRun = readFileSync(join(PROJECT_ROOT, '.ci/run'), 'utf8');
const readme = readFileSync(join(PROJECT_ROOT, 'README.md'), 'utf8');

describe('.ci/run', () => {
  it("ends with the README's test command, the labs and browser tests busy", () => {
    const lines = ciRun.trim().split('\n');
    expect(lines.at(-1)).toBe('npm test');
    expect(readme).toMatch(/^npm ci && npm test\s/m);
    expect(ciRun).toMatch(/^export LAN_PARTY_BUSY=lab,e2e$/m);
  });

  it('stops on a failed step and starts the clock for the summary line', () => {
    expect(ciRun).toContain('set -euo pipefail');
    expect(ciRun).toMatch(/^export LAN_PARTY_CI_STARTED$/m);
  });
});
