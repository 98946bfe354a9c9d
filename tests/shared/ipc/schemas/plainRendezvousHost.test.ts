import { describe, expect, it } from 'vitest';
import { rendezvousUrlSchema } from '../../../../shared/ipc/schemas/internetSettings';
import { plainRendezvousHostAllowed } from '../../../../shared/ipc/schemas/plainRendezvousHost';

describe('plain ws:// to a rendezvous', () => {
  it('is allowed to loopback, private, link-local and documentation (lab) addresses only', () => {
    const lab = [
      'localhost',
      '127.0.0.1',
      '127.9.8.7',
      '10.0.0.1',
      '172.16.0.1',
      '172.31.255.254',
      '192.168.1.20',
      '169.254.3.4',
      '192.0.2.7',
      '198.51.100.7',
      '203.0.113.5',
      '[::1]',
      '[fd12:3456::1]',
      '[fe80::1]',
      '[2001:db8::5]',
      '[::ffff:192.168.1.2]',
    ];
    for (const host of lab) expect(plainRendezvousHostAllowed(host), host).toBe(true);
    const internet = [
      'rdv.example.org',
      'my-box.lan',
      '8.8.8.8',
      '172.32.0.1',
      '100.64.0.1',
      '192.169.1.1',
      '203.0.114.5',
      '10.0.0.1.evil.example',
      '256.0.0.1',
      '[2606:4700::1111]',
      '[::]',
      '[::ffff:8.8.8.8]',
      '[2001:db9::1]',
    ];
    for (const host of internet) expect(plainRendezvousHostAllowed(host), host).toBe(false);
  });

  it('is refused in the settings and the CLI flag’s schema with the reason; wss:// is taken anywhere', () => {
    const refused = rendezvousUrlSchema.safeParse('ws://rdv.example.org:8787/rendezvous/v1');
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.message).toMatch(/Use wss:\/\/.*in clear.*loopback and private lab/);
    expect(rendezvousUrlSchema.safeParse('ws://8.8.8.8/rendezvous/v1').success).toBe(false);
    expect(rendezvousUrlSchema.safeParse('ws://[2606:4700::1]:80/rendezvous/v1').success).toBe(false);
    expect(rendezvousUrlSchema.safeParse('wss://rdv.example.org/rendezvous/v1').success).toBe(true);
    expect(rendezvousUrlSchema.safeParse('wss://8.8.8.8:8787/rendezvous/v1').success).toBe(true);
    expect(rendezvousUrlSchema.safeParse('ws://127.0.0.1:8787/rendezvous/v1').success).toBe(true);
    expect(rendezvousUrlSchema.safeParse('ws://203.0.113.5:8787/rendezvous/v1').success).toBe(true);
    expect(rendezvousUrlSchema.safeParse('ws://[::1]:8787/rendezvous/v1').success).toBe(true);
  });
});
