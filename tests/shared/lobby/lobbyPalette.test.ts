import { describe, expect, it } from 'vitest';
import { DEDICATED_HOST_COLOUR, GUEST_PALETTE, LOBBY_PALETTE, lobbyColourOf } from '../../../shared/lobby/lobbyPalette';
import { PLAYER_COLORS } from '../../../shared/ipc/schemas/settings';

describe('lobby palette', () => {
  it('is the players’ palette plus the dedicated host’s grey', () => {
    expect(GUEST_PALETTE).toEqual(PLAYER_COLORS.map((c) => c.hex));
    expect(LOBBY_PALETTE).toEqual([...GUEST_PALETTE, DEDICATED_HOST_COLOUR]);
  });

  it('keeps palette colours and maps anything else to the nearest one', () => {
    expect(lobbyColourOf('#3DDC97')).toBe('#3ddc97');
    expect(lobbyColourOf('#ff5577')).toBe('#ff5c8a'); // Rose
    expect(lobbyColourOf('#8890a0')).toBe(DEDICATED_HOST_COLOUR);
    expect(lobbyColourOf('#8890a0', GUEST_PALETTE)).not.toBe(DEDICATED_HOST_COLOUR);
    expect(lobbyColourOf('url(javascript:alert(1))')).toBe(LOBBY_PALETTE[0]);
  });
});
