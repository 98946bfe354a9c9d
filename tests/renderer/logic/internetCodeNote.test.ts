import { describe, expect, it } from 'vitest';
import { internetCodeNote } from '../../../renderer/src/logic/internetCodeNote';
import { encodeDhtCode, encodeDirectCode, encodeInternetCode } from '../../../shared/rendezvous';

const secret = 'K7Q2M9XD4';

describe('the note under a hosted room’s internet code', () => {
  it('says where each kind of code leads: the router’s port, the public DHT (no relay), or the rendezvous', () => {
    const note = (code: string) => internetCodeNote({ code, status: 'registered' });
    expect(note(encodeDirectCode('203.0.113.7', 41641, secret))).toMatch(/port your router opened/);
    expect(note(encodeDhtCode('ab'.repeat(32), secret))).toMatch(/public DHT .*no relay/);
    expect(note(encodeInternetCode('7K2MQ9', secret))).toMatch(/else through the relay/);
    expect(internetCodeNote({ code: encodeDhtCode('ab'.repeat(32), secret), status: 'closed' })).toMatch(/closed/);
  });
});
