import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkCandidateLine, MAX_REMOTE_CANDIDATES, parseIceParameters } from '../../../../main/net/ice';
import { agreedKeys, sealSignal } from '../../../../main/net/secure';
import { openIceParameters } from '../../../../main/reach/internet/sealedIceParameters';
import { sealedGarbageText } from '../../../support/sealedSignalFuzz';
import { seededRandom } from '../../../support/seededRandom';

// 100,000 texts in the suite, half each way; by hand (npm run fuzz:full) LAB_FUZZ_COUNT=1000000.
const COUNT = Math.max(10_000, Number(process.env.LAB_FUZZ_COUNT ?? 100_000)) / 2;
const SEED = Number(process.env.LAB_FUZZ_SEED ?? 1);

const random = (size: number) => new Uint8Array(randomBytes(size));
/**
 * The fuzz's nonces: case i's is i (fresh per text under each key), so a failing case is reproduced by its seed and
 * index alone, and each case stays cheap (a randomBytes call cost more than the seal it fed).
 */
const indexNonce = (i: number) => (size: number) => {
  const nonce = new Uint8Array(size);
  new DataView(nonce.buffer).setUint32(0, i);
  return nonce;
};
const keys = agreedKeys(new Uint8Array(64).fill(7));
const good = {
  usernameFragment: 'AbC1',
  password: 'abcdefghijklmnopqrstuv',
  candidates: ['3671762214 1 udp 2130706431 127.0.0.1 40000 typ host generation 0 ufrag AbC1'],
};

describe('openIceParameters: the one reader of sealed ICE parameters', () => {
  it('reads what the peer sealed under the key', () => {
    const result = openIceParameters(
      keys.signalGuestToHost,
      sealSignal(keys.signalGuestToHost, JSON.stringify(good), random),
    );
    expect(result).toEqual({ ok: true, parameters: good });
  });

  it.each([
    [
      'not sealed under the key',
      (key: Uint8Array) =>
        sealSignal(
          key.map((b) => b ^ 1),
          JSON.stringify(good),
          random,
        ),
      'unsealed',
    ],
    ['not base64url at all', () => '%%%', 'unsealed'],
    ['sealed, not JSON', (key: Uint8Array) => sealSignal(key, '{"usernameFragment":', random), 'not-json'],
    ['sealed JSON, not parameters', (key: Uint8Array) => sealSignal(key, '[1,2,3]', random), 'invalid'],
    [
      'sealed parameters with a malformed candidate line',
      (key: Uint8Array) =>
        sealSignal(key, JSON.stringify({ ...good, candidates: ['1 1 udp 1 127.0.0.1 0 typ host'] }), random),
      'invalid',
    ],
    [
      'too many candidates',
      (key: Uint8Array) =>
        sealSignal(
          key,
          JSON.stringify({ ...good, candidates: Array(MAX_REMOTE_CANDIDATES + 1).fill(good.candidates[0]) }),
          random,
        ),
      'invalid',
    ],
  ])('%s: a typed reason, never a throw', (_what, seal, reason) => {
    const result = openIceParameters(keys.signalGuestToHost, seal(keys.signalGuestToHost));
    expect(result).toMatchObject({ ok: false, reason });
    expect(result.ok || result.detail.length > 0).toBe(true);
  });
});

describe.each([
  ['the host reads a guest’s', keys.signalGuestToHost],
  ['a guest reads the host’s', keys.signalHostToGuest],
])(`fuzz: %s sealed ICE parameters (${COUNT.toLocaleString('en-US')} texts, seed ${SEED})`, (_who, key) => {
  it('every text gives checked parameters or a typed reason; none throws; a damaged seal never opens', () => {
    const draw = seededRandom(SEED);
    const seen = { ok: 0, 'not-json': 0, invalid: 0, unsealed: 0 };
    for (let i = 0; i < COUNT; i += 1) {
      const text = sealedGarbageText(draw);
      let sealed = sealSignal(key, text, indexNonce(i));
      const damaged = i % 10 === 0;
      if (damaged) {
        // One base64url character of the nonce, body or tag changed: the seal must not open.
        const at = Math.floor(draw() * (sealed.length - 1));
        sealed = sealed.slice(0, at) + (sealed[at] === 'A' ? 'B' : 'A') + sealed.slice(at + 1);
      }
      let result: ReturnType<typeof openIceParameters>;
      try {
        result = openIceParameters(key, sealed);
      } catch (error) {
        throw new Error(`case ${i} (seed ${SEED}) threw: ${String(error)}\n${JSON.stringify(text.slice(0, 200))}`, {
          cause: error,
        });
      }
      if (damaged && result.ok) throw new Error(`case ${i} (seed ${SEED}): a damaged seal opened`);
      if (result.ok) {
        // What passes is exactly what the schema and the candidate check take.
        expect(parseIceParameters(result.parameters)).toEqual(result.parameters);
        for (const line of result.parameters.candidates) checkCandidateLine(line);
        seen.ok += 1;
      } else {
        seen[result.reason] += 1;
      }
    }
    // The generator reaches every outcome: a fuzz that only ever met one branch would prove little.
    expect(seen.ok).toBeGreaterThan(0);
    expect(seen['not-json']).toBeGreaterThan(COUNT / 20);
    expect(seen.invalid).toBeGreaterThan(COUNT / 20);
    expect(seen.unsealed).toBeGreaterThanOrEqual(COUNT / 10);
  }, 600_000);
});
