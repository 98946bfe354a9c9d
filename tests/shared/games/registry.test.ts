import { describe, expect, it } from 'vitest';
import { createRegistry, UnknownGameError } from '../../../shared/games/createRegistry';
import { createGameRegistry } from '../../../shared/games/gameRegistry';
import { DEFAULT_GAME_ID, GAMES } from '../../../shared/games/registry';
import { JSON_GAME_WIRE } from '../../../shared/games/gameDefinition';
import { lightCyclesGame } from '../../../shared/games/light-cycles/lightCyclesGame';
import { tagGame } from '../../../shared/games/tag/tagGame';

describe('the game registry', () => {
  it('holds tag, the default game, and light cycles under their ids', () => {
    expect(GAMES.ids).toEqual(['tag', 'light-cycles']);
    expect(GAMES.get(DEFAULT_GAME_ID)).toBe(tagGame);
    expect(GAMES.list()).toEqual([tagGame, lightCyclesGame]);
    expect(lightCyclesGame).toMatchObject({ name: 'Light Cycles', minPlayers: 2, maxPlayers: 8 });
    expect(GAMES.has('tag')).toBe(true);
    expect(tagGame).toMatchObject({ name: 'Tag', minPlayers: 2, maxPlayers: 16, roundDuration: 90 });
  });

  it('refuses an unknown id with an error naming it and what there is', () => {
    expect(GAMES.find('chess')).toBeUndefined();
    expect(GAMES.has('chess')).toBe(false);
    expect(() => GAMES.get('chess')).toThrow(UnknownGameError);
    expect(() => GAMES.get('chess')).toThrow('Unknown game “chess”: this LAN Party has “tag”, “light-cycles”.');
    const long = 'x'.repeat(1000);
    expect(() => GAMES.get(long)).toThrow(`Unknown game “${'x'.repeat(64)}”`);
  });

  it('rejects malformed and repeated ids when built', () => {
    expect(() => createRegistry([{ id: 'Tag' }])).toThrow(/must match/);
    expect(() => createRegistry([{ id: '' }])).toThrow(/must match/);
    expect(() => createRegistry([{ id: '9lives' }])).toThrow(/must match/);
    expect(() => createRegistry([{ id: 'tag' }, { id: 'tag' }])).toThrow('game id “tag” is registered twice');
    expect(createRegistry([{ id: 'a' }, { id: 'b-2' }]).ids).toEqual(['a', 'b-2']);
  });

  it('takes a game whose per-tick messages travel as JSON when it says so', () => {
    const json = { ...tagGame, id: 'json-tag', wire: JSON_GAME_WIRE };
    expect(createGameRegistry([json]).get('json-tag')).toBe(json);
  });

  it('rejects games whose player limits, round length, wire or controls cannot work', () => {
    expect(createGameRegistry([tagGame]).get('tag')).toBe(tagGame);
    const bad = [
      { ...tagGame, minPlayers: 0 },
      { ...tagGame, minPlayers: 3, maxPlayers: 2 },
      { ...tagGame, maxPlayers: 17 },
      { ...tagGame, minPlayers: 1.5 },
      { ...tagGame, roundDuration: 0 },
      { ...tagGame, roundDuration: 601 },
      { ...tagGame, name: ' ' },
      // No silent JSON: a game names its wire, and a binary one carries a version.
      { ...tagGame, wire: undefined as never },
      { ...tagGame, wire: { ...tagGame.wire, version: 0 } },
      { ...tagGame, wire: { kind: 'xml' } as never },
      // Controls that cannot work: none, a button twice, a key bound to two buttons.
      { ...tagGame, controls: { ...tagGame.controls, buttons: [] } },
      {
        ...tagGame,
        controls: { ...tagGame.controls, buttons: [...tagGame.controls.buttons, tagGame.controls.buttons[0]!] },
      },
      {
        ...tagGame,
        controls: {
          ...tagGame.controls,
          buttons: [
            ...tagGame.controls.buttons,
            { id: 'jump', label: 'Jump', keys: ['Space'], mode: 'press' as const, slot: 'action' as const },
          ],
        },
      },
    ];
    for (const game of bad) expect(() => createGameRegistry([game]), JSON.stringify(game)).toThrow(RangeError);
  });
});
