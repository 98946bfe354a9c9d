import { describe, expect, it } from 'vitest';
import { EndpointMap } from '../../../../main/net/endpoint/endpointMap';

describe('EndpointMap', () => {
  it('keeps endpoints that share an address or a port apart', () => {
    const map = new EndpointMap<string>();
    map.set('10.0.0.1', 5000, 'a');
    map.set('10.0.0.1', 5001, 'b');
    map.set('10.0.0.2', 5000, 'c');
    expect([map.get('10.0.0.1', 5000), map.get('10.0.0.1', 5001), map.get('10.0.0.2', 5000)]).toEqual(['a', 'b', 'c']);
    expect(map.get('10.0.0.2', 5001)).toBeUndefined();
    expect(map.get('10.0.0.3', 5000)).toBeUndefined();
  });

  it('replaces the value of an endpoint set again', () => {
    const map = new EndpointMap<string>();
    map.set('10.0.0.1', 5000, 'old');
    map.set('10.0.0.1', 5000, 'new');
    expect(map.get('10.0.0.1', 5000)).toBe('new');
  });

  it('deletes one endpoint and forgets an address with none left', () => {
    const map = new EndpointMap<string>();
    map.set('10.0.0.1', 5000, 'a');
    map.set('10.0.0.1', 5001, 'b');
    expect(map.delete('10.0.0.1', 5000)).toBe(true);
    expect(map.get('10.0.0.1', 5000)).toBeUndefined();
    expect(map.get('10.0.0.1', 5001)).toBe('b');
    expect(map.addressCount).toBe(1);
    expect(map.delete('10.0.0.1', 5001)).toBe(true);
    expect(map.addressCount).toBe(0);
    expect(map.delete('10.0.0.1', 5001)).toBe(false);
    expect(map.delete('10.9.9.9', 1)).toBe(false);
  });
});
