import type { RemoteInfo } from 'node:dgram';
import { afterEach, describe, expect, it } from 'vitest';
import { EndpointDriver, type DriveMode } from '../../../../main/net/endpoint/driver';
import { DropReason, TrafficCounters } from '../../../../main/net/v1/stats';
import { waitFor } from '../../../support/waitFor';
import { backgroundScheduler as scheduler } from '../../../../main/base/scheduler';

const from: RemoteInfo = { address: '127.0.0.1', port: 4000, family: 'IPv4', size: 1 };
const drivers: EndpointDriver[] = [];
afterEach(() => {
  for (const d of drivers.splice(0)) d.stop();
});

/** A driver whose hooks log what they were called with, in order. */
function driverFor(mode: DriveMode, inboxLimit?: number) {
  const log: string[] = [];
  const counters = new TrafficCounters();
  const driver: EndpointDriver = new EndpointDriver(
    {
      handleDatagram: (data) => {
        log.push(`datagram ${data[0]}`);
        // A datagram with first byte 1 answers at once (as a message callback that sends would).
        if (data[0] === 1) driver.requestPromptFlush();
      },
      service: (now) => log.push(`service ${now}`),
      afterBatch: () => log.push('flush'),
    },
    { mode, scheduler, clock: () => 7, tickInterval: 3600, counters, inboxLimit },
  );
  drivers.push(driver);
  return { driver, log, counters };
}

const nextTurn = () => new Promise<void>((r) => setTimeout(r, 0));

describe('EndpointDriver, auto mode', () => {
  it('runs one prompt flush for many requests, as a microtask before the event loop moves on', async () => {
    const { driver, log } = driverFor('auto');
    driver.requestPromptFlush();
    driver.requestPromptFlush();
    log.push('sync code done');
    await Promise.resolve();
    expect(log).toEqual(['sync code done', 'flush']);
    driver.requestPromptFlush();
    await nextTurn();
    expect(log).toEqual(['sync code done', 'flush', 'flush']);
  });

  it('handles datagrams at once and flushes once after the turn that received them', async () => {
    const { driver, log } = driverFor('auto');
    driver.onDatagram(Uint8Array.of(0), from);
    driver.onDatagram(Uint8Array.of(0), from);
    expect(log).toEqual(['datagram 0', 'datagram 0']);
    await Promise.resolve();
    expect(log).toEqual(['datagram 0', 'datagram 0']); // acks wait for the end of the turn, to share a datagram
    await nextTurn();
    expect(log).toEqual(['datagram 0', 'datagram 0', 'flush']);
  });

  it('adds no end-of-turn flush when the datagram already asked for a prompt one', async () => {
    const { driver, log } = driverFor('auto');
    driver.onDatagram(Uint8Array.of(1), from);
    await nextTurn();
    expect(log).toEqual(['datagram 1', 'flush']);
  });

  it('runs nothing pending once stopped', async () => {
    const { driver, log } = driverFor('auto');
    driver.onDatagram(Uint8Array.of(0), from);
    driver.requestPromptFlush();
    driver.stop();
    driver.onDatagram(Uint8Array.of(0), from);
    await nextTurn();
    expect(log).toEqual(['datagram 0']);
  });
});

describe('EndpointDriver, manual mode', () => {
  it('holds datagrams for update, which handles them, services, then flushes', async () => {
    const { driver, log } = driverFor('manual');
    driver.onDatagram(Uint8Array.of(1), from);
    driver.requestFlush();
    driver.requestPromptFlush();
    await nextTurn();
    expect(log).toEqual([]);
    driver.update();
    expect(log).toEqual(['datagram 1', 'service 7', 'flush']);
  });

  it('drops datagrams beyond the inbox limit and counts them', () => {
    const { driver, log, counters } = driverFor('manual', 2);
    for (let i = 0; i < 3; i++) driver.onDatagram(Uint8Array.of(i + 2), from);
    expect(counters.dropped[DropReason.INBOX_FULL]).toBe(1);
    driver.update();
    expect(log).toEqual(['datagram 2', 'datagram 3', 'service 7', 'flush']);
  });
});

describe('EndpointDriver, idle service period', () => {
  function idleDriver(urgent: () => boolean, mode: DriveMode = 'auto') {
    let services = 0;
    const driver = new EndpointDriver(
      { handleDatagram: () => undefined, service: () => services++, afterBatch: () => undefined, urgent },
      { mode, scheduler, clock: () => 0, tickInterval: 0.001, idleTickInterval: 3600, counters: new TrafficCounters() },
    );
    drivers.push(driver);
    return { driver, services: () => services };
  }

  it('drops to the idle period after fine ticks with nothing urgent, and hurry() brings the fine tick back', async () => {
    const { driver, services } = idleDriver(() => false);
    expect(driver.servicePeriod).toBe(0.001);
    await waitFor(() => services() >= 10, 2000, 'ten quiet fine ticks');
    expect(driver.servicePeriod).toBe(3600);
    driver.hurry();
    expect(driver.servicePeriod).toBe(0.001);
    const before = services();
    await waitFor(() => services() > before, 2000, 'a fine tick after hurry');
  });

  it('stays on the fine tick while something is urgent, and a batch that made something urgent wakes it', async () => {
    let urgent = false;
    const { driver, services } = idleDriver(() => urgent);
    await waitFor(() => driver.servicePeriod === 3600, 2000, 'idle');
    urgent = true;
    driver.requestPromptFlush();
    await Promise.resolve();
    expect(driver.servicePeriod).toBe(0.001);
    const before = services();
    await waitFor(() => services() >= before + 3, 2000, 'fine ticks');
    expect(driver.servicePeriod).toBe(0.001);
    urgent = false;
    await waitFor(() => driver.servicePeriod === 3600, 2000, 'idle again');
  });

  it('has no timer in manual mode: hurry() changes nothing', () => {
    const { driver } = idleDriver(() => true, 'manual');
    driver.hurry();
    expect(driver.servicePeriod).toBe(0);
  });
});

describe('EndpointDriver, timed wake-ups', () => {
  function wakingDriver(mode: DriveMode = 'auto') {
    const woken: number[] = [];
    const clock = () => scheduler.now() / 1000;
    const driver = new EndpointDriver(
      {
        handleDatagram: () => undefined,
        service: () => undefined,
        afterBatch: () => undefined,
        wake: () => woken.push(clock()),
      },
      { mode, scheduler, clock, tickInterval: 3600, counters: new TrafficCounters() },
    );
    drivers.push(driver);
    return { driver, woken, clock };
  }

  it('wakes once at the earliest time asked, not before it, between ticks', async () => {
    const { driver, woken, clock } = wakingDriver();
    const asked = clock();
    driver.wakeAt(asked + 0.05);
    driver.wakeAt(asked + 0.02); // earlier: re-armed for it
    driver.wakeAt(asked + 0.03); // later than the one armed: no second timer
    await waitFor(() => woken.length > 0, 2000, 'the wake-up');
    expect(woken[0]! - asked).toBeGreaterThanOrEqual(0.02);
    driver.wakeAt(clock() + 0.001); // asking again after a wake-up arms a new one
    await waitFor(() => woken.length > 1, 2000, 'the second wake-up');
    expect(woken).toHaveLength(2);
  });

  it('does not wake once stopped, nor in manual mode (update flushes)', async () => {
    const stopped = wakingDriver();
    stopped.driver.wakeAt(stopped.clock() + 0.005);
    stopped.driver.stop();
    const manual = wakingDriver('manual');
    manual.driver.wakeAt(manual.clock() + 0.005);
    // A later wake-up on a live driver has fired: the two earlier ones would have by then.
    const probe = wakingDriver();
    probe.driver.wakeAt(probe.clock() + 0.02);
    await waitFor(() => probe.woken.length > 0, 2000, 'the probe wake-up');
    expect(stopped.woken).toEqual([]);
    expect(manual.woken).toEqual([]);
  });
});
