import type { DhtReport } from '../../shared/netcheck/report';
import type { Scheduler, TimerHandle } from '../base/scheduler';
import { natViewOf, type DhtNatKind, type DhtNode } from '../reach/internet/dht/dhtNode';

/** Options of {@link checkDht}. */
export interface DhtCheckOptions {
  /** The backend's DHT node; undefined: the DHT is off (skipped). */
  readonly dht: DhtNode | undefined;
  readonly scheduler: Scheduler;
  /** Milliseconds the node may take to join the DHT; default 10 000. */
  readonly timeoutMs?: number;
}

const WORDS: Readonly<Record<DhtNatKind, { readonly title: string; readonly message: string }>> = {
  open: {
    title: 'Reachable from the internet',
    message: 'Guests who find your room on the DHT connect straight in, whatever their own network.',
  },
  consistent: {
    title: 'Behind a NAT that keeps its ports',
    message: 'Hole punching works: guests who find your room on the DHT connect through both routers, no relay needed.',
  },
  randomized: {
    title: 'Behind a NAT that changes ports per destination',
    message:
      'Rooms on the DHT reach guests whose NAT keeps its ports; between two networks like this one a relay is needed (a rendezvous server with TURN, in Settings → Internet rooms).',
  },
  unknown: {
    title: 'The DHT answered too little to tell',
    message: 'Run the check again in a moment: the DHT needs a few answers to see how your network looks.',
  },
};

/**
 * Which kind of NAT this machine is behind as the DHT sees it (dht-rpc's firewall check and NAT sampler): the
 * node joins the DHT if it has not yet (the one time the check sends to the public DHT, and only when it is on).
 */
export async function checkDht(options: DhtCheckOptions): Promise<DhtReport> {
  const { dht, scheduler } = options;
  if (!dht) {
    return {
      status: 'skipped',
      publicAddress: null,
      title: 'The DHT is off',
      message: 'Internet rooms meet their guests through the router’s port or a rendezvous server only.',
    };
  }
  let timer: TimerHandle | undefined;
  try {
    const node = await Promise.race([
      dht.get(),
      new Promise<never>((_, reject) => {
        timer = scheduler.setTimer(
          () => reject(new Error('no bootstrap node answered in time')),
          options.timeoutMs ?? 10_000,
        );
      }),
    ]);
    const view = natViewOf(node);
    return {
      status: view.kind,
      publicAddress: view.publicAddress === null ? null : `${view.publicAddress}:${view.publicPort}`,
      ...WORDS[view.kind],
    };
  } catch (error) {
    return {
      status: 'failed',
      publicAddress: null,
      title: 'Could not reach the DHT',
      message: `${error instanceof Error ? error.message : String(error)}: rooms with no router mapping cannot meet guests there now.`,
    };
  } finally {
    if (timer !== undefined) scheduler.clearTimer(timer);
  }
}
