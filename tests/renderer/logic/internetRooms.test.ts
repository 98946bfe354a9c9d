import { describe, expect, it } from 'vitest';
import { internetRoomsHint, internetRoomsOffer } from '../../../renderer/src/logic/internetRooms';

const rendezvous = { rendezvousUrl: 'wss://meet.example.org/rendezvous/v1', turn: { mode: 'shared-secret' } } as const;
const none = { rendezvousUrl: null, turn: { mode: 'shared-secret' } } as const;

describe('what the host form offers for friends over the internet', () => {
  it('offers internet rooms when main maps ports, even with no rendezvous set', () => {
    expect(internetRoomsOffer(none, true)).toBe('router');
    expect(internetRoomsOffer(undefined, true)).toBe('router');
    expect(internetRoomsOffer(rendezvous, true)).toBe('router-or-rendezvous');
  });

  it('needs a rendezvous when main maps no ports', () => {
    expect(internetRoomsOffer(rendezvous, false)).toBe('rendezvous');
    expect(internetRoomsOffer(none, false)).toBe('off');
    expect(internetRoomsOffer(undefined, false)).toBe('off');
  });

  it('offers the DHT when main has it and no rendezvous is set (a rendezvous, with its relay, comes first)', () => {
    expect(internetRoomsOffer(none, true, true)).toBe('router-or-dht');
    expect(internetRoomsOffer(undefined, false, true)).toBe('dht');
    expect(internetRoomsOffer(rendezvous, true, true)).toBe('router-or-rendezvous');
    expect(internetRoomsOffer(rendezvous, false, true)).toBe('rendezvous');
    expect(internetRoomsHint('dht')).toMatch(/public DHT.*straight through both routers/);
    expect(internetRoomsHint('router-or-dht')).toMatch(/router opens a port.*public DHT/);
  });

  it('says what each offer means, and only "off" asks for a rendezvous', () => {
    expect(internetRoomsHint('off')).toMatch(/^Internet rooms are off: add a rendezvous server/);
    expect(internetRoomsHint('router')).toMatch(/router opens a port/);
    expect(internetRoomsHint('router')).not.toMatch(/relay|rendezvous/);
    expect(internetRoomsHint('rendezvous')).toMatch(/through the relay/);
    expect(internetRoomsHint('router-or-rendezvous')).toMatch(/router opens a port.*rendezvous/);
  });
});
