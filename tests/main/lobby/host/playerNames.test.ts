import { describe, expect, it } from 'vitest';
import { nameSkeleton } from '../../../../main/lobby/host/nameSkeleton';
import { claimsHostMarker, roomNameFor } from '../../../../main/lobby/host/playerNames';

const named = (requested: string, taken: string[]) => {
  const decision = roomNameFor(requested, taken);
  return decision.ok ? decision.name : `refused: ${decision.why}`;
};

describe('confusable skeletons', () => {
  it('gives look-alikes one skeleton and different names different ones', () => {
    expect(nameSkeleton('\u0410lice')).toBe(nameSkeleton('Alice')); // Cyrillic А
    expect(nameSkeleton('AIice')).toBe(nameSkeleton('Alice')); // capital I for l
    expect(nameSkeleton('alice')).toBe(nameSkeleton('Alice'));
    expect(nameSkeleton('Hаnа')).toBe(nameSkeleton('Hana')); // Cyrillic а twice
    expect(nameSkeleton('Bob')).not.toBe(nameSkeleton('Alice'));
    expect(nameSkeleton('Hana 2')).not.toBe(nameSkeleton('Hana'));
  });
});

describe('room names for players', () => {
  const room = ['Hana', 'Gus'];

  it('keeps a distinct name as typed (normalised)', () => {
    expect(named('  Ada ', room)).toBe('Ada');
    expect(named('Ｉｄａ', room)).toBe('Ida');
  });

  it.each([
    ['the host’s exact name', 'Hana'],
    ['the host’s name with a control character', 'Ha\u0007na'],
    ['the host’s name with NBSP padding', '\u00a0Hana\u00a0'],
    ['the host’s name in Cyrillic look-alikes', 'Hаnа'],
    ['the host’s name with zero-width characters', 'H\u200ban\u200da'],
    ['the host’s name in another case', 'hana'],
    ['the host’s name in fullwidth letters', 'Ｈａｎａ'],
  ])('makes %s distinct', (_what, requested) => {
    const name = named(requested, room);
    // The player keeps their spelling, numbered: it no longer looks like anyone in the room.
    expect(nameSkeleton(name)).toBe(nameSkeleton('Hana 2'));
    expect(room.map(nameSkeleton)).not.toContain(nameSkeleton(name));
  });

  it('picks the first free number, within 24 units', () => {
    expect(named('Hana', [...room, 'Hana 2'])).toBe('Hana 3');
    expect(named('x'.repeat(24), ['x'.repeat(24)])).toBe(`${'x'.repeat(22)} 2`);
  });

  it('removes the brackets of a typed host marker, however it is spelled', () => {
    expect(named('Alice (Host)', room)).toBe('Alice Host');
    expect(named('Alice [HOST]', room)).toBe('Alice HOST');
    expect(named('Alice （Ноst）', room)).toBe('Alice Ноst');
    expect(named('(host)Alice', room)).toBe('host Alice');
    expect(claimsHostMarker('Alice (Host)')).toBe(true);
    expect(claimsHostMarker('Hostess')).toBe(false);
  });

  it('refuses names that show nothing', () => {
    for (const invisible of ['', '   ', '\u200b', '\u3164', '\u202e\u200f', '\u2800']) {
      expect(named(invisible, room)).toBe('refused: invisible');
    }
  });

  it('turns bidi tricks into plain text', () => {
    expect(named('Eve\u202eteh', room)).toBe('Eveteh');
  });
});
