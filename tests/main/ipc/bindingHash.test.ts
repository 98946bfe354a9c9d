import { describe, expect, it } from 'vitest';
import { formatBindingHash, parseBindingHash } from '../../../shared/ipc/bindingHash';
import { webSocketBindingUrl } from '../../../shared/ipc/wsProtocol';

const secret = 'abcdefghijklmnop_QRSTUV-0123456789';

describe('binding hash', () => {
  it('round-trips port and secret', () => {
    const hash = formatBindingHash({ port: 41234, secret });
    expect(hash).toBe(`#ws=41234&secret=${secret}`);
    expect(parseBindingHash(hash)).toEqual({ port: 41234, secret });
    expect(parseBindingHash(hash.slice(1))).toEqual({ port: 41234, secret });
  });

  it.each([
    [''],
    ['#'],
    [`#secret=${secret}`],
    ['#ws=41234'],
    [`#ws=0&secret=${secret}`],
    [`#ws=65536&secret=${secret}`],
    [`#ws=12ab&secret=${secret}`],
    ['#ws=41234&secret=short'],
    ['#ws=41234&secret=has%20spaces%20in%20it%20oops'],
    ['#ws=41234&secret=%E0%A4%A'],
  ])('rejects %j', (hash) => {
    expect(parseBindingHash(hash)).toBeNull();
  });

  it('builds a loopback WebSocket URL with the secret encoded', () => {
    expect(webSocketBindingUrl(5000, 'a+b')).toBe('ws://127.0.0.1:5000/?secret=a%2Bb');
  });
});
