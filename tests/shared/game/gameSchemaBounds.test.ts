import { describe, expect, it } from 'vitest';
import { inputPayloadParser, parseResultsPayload, parseRosterPayload } from '../../../shared/game/gameSchemas';
import { tagInputCodec } from '../../../shared/games/tag/wire/tagInput';

// Game messages come from peers: every number and string in them is bounded.
describe('game message bounds', () => {
  it('refuses tag inputs that are not finite (the host clamps the ranges itself)', () => {
    const parseInput = inputPayloadParser(tagInputCodec);
    expect(parseInput({ g: 1, d: 0.1, i: [[1, -1, 1, 0]] })).toBeDefined();
    expect(parseInput({ g: 1, d: 0.1, i: [[1, Infinity, 0, 0]] })).toBeUndefined();
    expect(parseInput({ g: 1, d: NaN, i: [[1, 0, 0, 0]] })).toBeUndefined();
  });

  it('refuses roster colours that are not hex colours', () => {
    expect(parseRosterPayload({ g: 1, part: 0, parts: 1, p: [['1', 'Ada', '#a3e048']] })).toBeDefined();
    expect(parseRosterPayload({ g: 1, part: 0, parts: 1, p: [['1', 'Ada', '#fff']] })).toBeDefined();
    for (const colour of ['url(javascript:x)', 'red', '#12345g', '']) {
      expect(parseRosterPayload({ g: 1, part: 0, parts: 1, p: [['1', 'Ada', colour]] })).toBeUndefined();
    }
  });

  it('refuses absurd scores and stat counts', () => {
    expect(parseResultsPayload({ g: 1, why: 'finished', w: ['1'], s: [['1', 42.5, 3]] })).toBeDefined();
    expect(parseResultsPayload({ g: 1, why: 'finished', w: ['1'], s: [['1', 1e12, 3]] })).toBeUndefined();
    expect(parseResultsPayload({ g: 1, why: 'finished', w: ['1'], s: [['1', 1, 1e12]] })).toBeUndefined();
  });
});
