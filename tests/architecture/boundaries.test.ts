import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ICruiseResult, IViolation } from 'dependency-cruiser';
import { CHECKS } from '../../scripts/checks';
import {
  CHECKED_ROOTS,
  PROJECT_ROOT,
  cruiseWithProjectRules,
  readKnownViolations,
} from '../../scripts/architecture/projectCruise';

// The boundary rules live in .dependency-cruiser.cjs; `npm run lint:deps` applies them to the project. Here
// they run over a fixture tree that breaks each rule once, so a rule that stops biting fails this test.
const FIXTURE = join(PROJECT_ROOT, 'tests/fixtures/boundaries');
const FIXTURE_ROOTS = ['main', 'shared', 'renderer', 'preload', 'tests'];

const describeViolation = (violation: IViolation) => `${violation.rule.name}: ${violation.from} → ${violation.to}`;
const pkg = (name: string) => `../../../node_modules/${name}`;
// A cruise parses every file with TypeScript: ~5 s for the project alone, more on a busy machine.
const CRUISE_TIMEOUT_MS = 60_000;
const SLOW = { timeout: CRUISE_TIMEOUT_MS };

/** Every forbidden import in the fixture, by rule; the fixture's allowed imports must not appear. */
const EXPECTED = [
  'shared-no-node-builtins: shared/readsDisk.ts → fs',
  'shared-no-node-builtins: shared/opensSocket.ts → dgram',
  // Type-only imports count too: shared/ must compile without @types/node (tsconfig.shared.json).
  'shared-no-node-builtins: shared/namesNodeType.ts → dgram',
  `shared-no-electron: shared/usesElectron.ts → ${pkg('electron/index.js')}`,
  `shared-no-react-or-dom: shared/usesReact.ts → ${pkg('react/index.js')}`,
  'shared-imports-only-shared: shared/reachesMain.ts → main/base/log.ts',
  'shared-parts-import-downward: shared/lobby/reachesIpc.ts → shared/ipc/contract.ts',
  'base-imports-only-shared: main/base/reachesNet.ts → main/net/index.ts',
  'net-is-a-library: main/net/endpoint/reachesFeature.ts → main/lobby/lobbyService.ts',
  'net-parts-below-endpoint: main/net/v1/reachesEndpoint.ts → main/net/endpoint/server.ts',
  'v1-is-the-reference-format: main/net/v1/reachesNative.ts → main/net/native/nativeConnection.ts',
  'codec-only-needs-the-serializer: main/net/codec/reachesDiscovery.ts → main/net/discovery/index.ts',
  'discovery-stands-alone: main/net/discovery/reachesV1.ts → main/net/v1/connection.ts',
  'no-runtime-import-between-features: main/lobby/reachesLan.ts → main/lan/lanService.ts',
  'reach-runs-no-feature: main/reach/lan/reachesLobby.ts → main/lobby/lobbyService.ts',
  'seats-run-no-feature: main/seats/reachesLobby.ts → main/lobby/lobbyService.ts',
  'lobby-sees-only-reach-doors: main/lobby/reachesReachInsides.ts → main/reach/lan/findRoom.ts',
  'secure-only-in-the-internet-reach: main/rendezvous/sealsPaths.ts → main/net/secure/index.ts',
  'ice-only-in-the-internet-reach: main/game/opensIcePath.ts → main/net/ice/index.ts',
  'ipc-imports-no-feature: main/ipc/reachesFeature.ts → main/lan/lanService.ts',
  'only-entries-wire-the-app: main/lobby/reachesBackend.ts → main/createBackend.ts',
  'net-through-its-doors: main/lobby/reachesNetInternals.ts → main/net/v1/connection.ts',
  `electron-only-in-the-shell: main/lobby/usesElectron.ts → ${pkg('electron/index.js')}`,
  'renderer-imports-only-renderer-and-shared: renderer/src/reachesMain.ts → main/base/log.ts',
  'renderer-no-node-builtins: renderer/src/usesNode.ts → path',
  'preload-imports-only-shared-ipc: preload/reachesShared.ts → shared/pure.ts',
  'no-circular: shared/cycleA.ts → shared/cycleB.ts',
  'no-orphans-in-main: main/game/orphan.ts → main/game/orphan.ts',
  'app-code-not-into-tests: main/lobby/reachesTests.ts → tests/helper.ts',
  'no-unresolvable: main/lobby/missingImport.ts → ./doesNotExist',
];

describe('import boundaries (dependency-cruiser)', () => {
  let fixture: ICruiseResult;
  beforeAll(async () => {
    fixture = await cruiseWithProjectRules(FIXTURE_ROOTS, { baseDir: FIXTURE });
  }, CRUISE_TIMEOUT_MS);

  it('reports each forbidden import of the fixture tree under its rule, and none of its allowed imports', () => {
    const result = fixture;
    expect(result.summary.violations.map(describeViolation).sort()).toEqual([...EXPECTED].sort());
    expect(result.summary.error).toBe(EXPECTED.length);
  });

  it('has a failing example for every rule of the config', () => {
    const rules = (fixture.summary.ruleSetUsed?.forbidden ?? []).map((rule) => rule.name).sort();
    expect(rules.length).toBeGreaterThan(10);
    expect(new Set(EXPECTED.map((line) => line.slice(0, line.indexOf(':'))))).toEqual(new Set(rules));
  });

  it('ignores a known violation edge by edge: another break of the same rule still fails', SLOW, async () => {
    const known = fixture.summary.violations.filter((v) => v.rule.name === 'no-runtime-import-between-features');
    expect(known).toHaveLength(1);
    const result = await cruiseWithProjectRules(FIXTURE_ROOTS, {
      baseDir: FIXTURE,
      overrides: { knownViolations: known },
    });
    expect(result.summary.ignore).toBe(1);
    expect(result.summary.error).toBe(EXPECTED.length - 1);
  });

  it('finds no violation in the project beyond the known ones, and every known one still exists', SLOW, async () => {
    const known = readKnownViolations();
    const result = await cruiseWithProjectRules(CHECKED_ROOTS, { overrides: { knownViolations: known } });
    expect(result.summary.totalCruised).toBeGreaterThan(300);
    const fresh = result.summary.violations.filter((v) => v.rule.severity !== 'ignore');
    expect(fresh.map(describeViolation)).toEqual([]);
    // A fixed violation must leave the baseline (npm run lint:deps:baseline), or its return would pass unseen.
    const stillThere = new Set(result.summary.violations.map(describeViolation));
    expect(known.map(describeViolation).filter((line) => !stillThere.has(line))).toEqual([]);
  });

  it('is what npm run lint:deps runs, over the same roots and with the baseline', () => {
    const scripts = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')).scripts as Record<
      string,
      string
    >;
    expect(scripts['lint:deps']).toBe(
      `depcruise --config .dependency-cruiser.cjs --ignore-known .dependency-cruiser-known-violations.json ${CHECKED_ROOTS.join(' ')}`,
    );
    // npm test runs it among its static checks (scripts/checks.ts, as tests in tests/scripts/checks.test.ts).
    expect(CHECKS).toContain('lint:deps');
  });

  it('rejects a baseline that is not a list of violations', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lan-party-baseline-'));
    try {
      writeFileSync(join(dir, '.dependency-cruiser-known-violations.json'), '{"from": "main/x.ts"}');
      expect(() => readKnownViolations(dir)).toThrow(/must hold a JSON array/);
      writeFileSync(join(dir, '.dependency-cruiser-known-violations.json'), '[{');
      expect(() => readKnownViolations(dir)).toThrow(SyntaxError);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
