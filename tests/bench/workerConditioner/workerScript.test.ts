import { describe, expect, it } from 'vitest';
import { workerScript } from '../../../bench/workerConditioner/workerScript';

describe('workerScript', () => {
  it('boots a .ts worker entry through tsx (the source, as tests and tsx run it)', () => {
    const script = workerScript('conditionerWorker');
    expect(script.options).toEqual({ eval: true });
    expect(script.filename).toMatch(/require\(".*tsx.*"\);\nrequire\(".*bench\/workerConditioner\/conditionerWorker\.ts"\);/);
  });

  it('names the missing file when a bundle does not ship the entry', () => {
    expect(() => workerScript('noSuchWorker')).toThrow(/noSuchWorker\.ts is missing \(a bundle must ship/);
  });
});
