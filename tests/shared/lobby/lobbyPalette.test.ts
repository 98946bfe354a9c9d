import { describe, expect, it } from 'vitest';
import {
  DEDICATED_HOST_COLOUR,
  GUEST_PALETTE,
  hueOf,
  IT_MARKER_COLOUR,
  LOBBY_PALETTE,
  lobbyColourOf,
  looksLikeItMarker,
} from '../../../shared/lobby/lobbyPalette';
import { PLAYER_COLOURS } from '../../../shared/games/tag/rules';
import { playerColorSchema } from '../../../shared/ipc/schemas/settings';
import { PLAYER_COLORS, RETIRED_PLAYER_COLORS } from '../../../shared/lobby/playerColors';

describe('lobby palette', () => {
  it('is the players’ palette plus the dedicated host’s grey', () => {
    expect(GUEST_PALETTE).toEqual(PLAYER_COLORS.map((c) => c.hex));
    expect(LOBBY_PALETTE).toEqual([...GUEST_PALETTE, DEDICATED_HOST_COLOUR]);
  });

  it('keeps palette colours and maps anything else to the nearest one', () => {
    expect(lobbyColourOf('#3DDC97')).toBe('#3ddc97');
    expect(lobbyColourOf('#ff5577')).not.toBe('#ff5c8a'); // Rose is retired…
    expect(lobbyColourOf('#FF5C8A')).toBe('#a3e048'); // …and read as Lime
    expect(lobbyColourOf('#8890a0')).toBe(DEDICATED_HOST_COLOUR);
    expect(lobbyColourOf('#8890a0', GUEST_PALETTE)).not.toBe(DEDICATED_HOST_COLOUR);
    expect(lobbyColourOf('url(javascript:alert(1))')).toBe(LOBBY_PALETTE[0]);
  });

  it('keeps the "it" marker\'s red out of every player colour, the game\'s fallback colours included', () => {
    expect(looksLikeItMarker(IT_MARKER_COLOUR)).toBe(true);
    expect(looksLikeItMarker('#ff5c8a')).toBe(true); // the retired Rose
    expect(looksLikeItMarker('#e6194b')).toBe(true);
    expect(looksLikeItMarker('#f4f1ea')).toBe(false); // Chalk: hue without saturation
    for (const hex of [...LOBBY_PALETTE, ...PLAYER_COLOURS])
      expect({ hex, red: looksLikeItMarker(hex) }).toEqual({ hex, red: false });
    // Nearest-colour mapping can therefore never land on the marker's hue either.
    for (const request of ['#ff0000', '#ff4d6d', '#e6194b', '#cc0033'])
      expect(looksLikeItMarker(lobbyColourOf(request))).toBe(false);
  });

  it('reads hues and saturations', () => {
    expect(hueOf('#ff0000')).toEqual({ hue: 0, saturation: 1 });
    expect(hueOf('#00ff00').hue).toBe(120);
    expect(hueOf('#0000ff').hue).toBe(240);
    expect(hueOf('#808080')).toEqual({ hue: 0, saturation: 0 });
  });

  it('migrates a saved retired colour instead of refusing it', () => {
    for (const [old, now] of Object.entries(RETIRED_PLAYER_COLORS)) {
      expect(playerColorSchema.parse(old.toUpperCase())).toBe(now);
      expect(GUEST_PALETTE).toContain(now);
    }
    expect(playerColorSchema.safeParse('#123456').success).toBe(false);
  });
});
