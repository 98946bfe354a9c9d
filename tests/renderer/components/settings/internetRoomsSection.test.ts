import { describe, expect, it } from 'vitest';
import { draftOf, settingsOf } from '../../../../renderer/src/components/settings/internetRoomsDraft';

// The section component itself (renderer/src/components/settings/InternetRoomsSection.tsx) is a thin form over this logic.
describe('Settings → Internet rooms form logic', () => {
  it('starts off: no rendezvous address, TURN from the rendezvous', () => {
    expect(draftOf(undefined)).toEqual({
      rendezvousUrl: '',
      turnMode: 'shared-secret',
      turnServer: '',
      turnUsername: '',
      turnPassword: '',
      dhtBootstrap: '',
    });
  });

  it('turns the form into the settings block, an empty address meaning off, and back', () => {
    const draft = draftOf(undefined);
    expect(settingsOf(draft)).toEqual({ ok: true, value: { rendezvousUrl: null, turn: { mode: 'shared-secret' } } });
    expect(settingsOf({ ...draft, rendezvousUrl: '  ws://127.0.0.1:8787/rendezvous/v1 ' })).toMatchObject({
      ok: true,
      value: { rendezvousUrl: 'ws://127.0.0.1:8787/rendezvous/v1' },
    });
    const own = {
      ...draft,
      turnMode: 'static' as const,
      turnServer: 'turn.example.org:3478',
      turnUsername: 'a',
      turnPassword: 'b',
    };
    const result = settingsOf(own);
    if (!result.ok) throw new Error(result.error);
    expect(result.value.turn).toEqual({
      mode: 'static',
      server: 'turn.example.org:3478',
      username: 'a',
      password: 'b',
    });
    expect(draftOf(result.value)).toEqual(own);
  });

  it('keeps the DHT bootstrap nodes typed (commas or spaces), none meaning the public ones, and refuses a bad one', () => {
    const draft = draftOf(undefined);
    const result = settingsOf({ ...draft, dhtBootstrap: ' 203.0.113.10:49737,dht.example.org:1  [::1]:5 ' });
    expect(result).toEqual({
      ok: true,
      value: {
        rendezvousUrl: null,
        turn: { mode: 'shared-secret' },
        dhtBootstrap: ['203.0.113.10:49737', 'dht.example.org:1', '[::1]:5'],
      },
    });
    if (result.ok) expect(draftOf(result.value).dhtBootstrap).toBe('203.0.113.10:49737, dht.example.org:1, [::1]:5');
    expect(settingsOf({ ...draft, dhtBootstrap: ' , ' })).toEqual(settingsOf(draft));
    expect(settingsOf({ ...draft, dhtBootstrap: '203.0.113.10' })).toEqual({
      ok: false,
      error: expect.stringMatching(/host:port/),
    });
  });

  it('refuses a bad address or a missing TURN password with the schema’s message', () => {
    const draft = draftOf(undefined);
    expect(settingsOf({ ...draft, rendezvousUrl: 'https://x' })).toEqual({
      ok: false,
      error: expect.stringMatching(/ws:\/\//),
    });
    const noPassword = {
      ...draft,
      turnMode: 'static' as const,
      turnServer: 'turn.example.org:3478',
      turnUsername: 'a',
      turnPassword: '',
    };
    expect(settingsOf(noPassword)).toEqual({ ok: false, error: 'Give the TURN password' });
  });
});
