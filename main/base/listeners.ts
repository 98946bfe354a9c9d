/** One registration; `live` turns false when it is removed, so an emit already under way skips it. */
interface Registration<A extends unknown[]> {
  readonly callback: (...args: A) => void;
  live: boolean;
}

type UpToTwo = (a?: unknown, b?: unknown) => void;

/**
 * Callbacks for one event; `add` returns the function that removes the callback again. Adding a callback
 * already registered does nothing. An emit calls the callbacks registered when it began, less any removed
 * meanwhile (as DOM events do). Registrations live in an array replaced on each change: a Set emptied
 * and refilled (a message handler added per request) reallocated its table every time.
 */
export class Listeners<A extends [] | [unknown] | [unknown, unknown]> {
  private registrations: readonly Registration<A>[] = [];

  constructor(private readonly onError: (error: unknown) => void) {}

  /** Registers `callback`; the returned function unregisters it. */
  add(callback: (...args: A) => void): () => void {
    const registration =
      this.registrations.find((r) => r.callback === callback) ?? this.append({ callback, live: true });
    return () => this.remove(registration);
  }

  /**
   * Calls every callback; an exception in one is reported, not thrown, so the transport keeps running.
   * Arguments are passed one by one (events carry at most two): a rest array per message showed in profiles.
   */
  emit(...args: A): void;
  emit(a?: unknown, b?: unknown): void {
    // As many arguments as the caller gave (a callback may look at arguments.length), without an array.
    this.emitCounted(arguments.length, a, b);
  }

  /** {@link emit} with the count of arguments given: what {@link TypedListeners} forwards. */
  emitCounted(count: number, a?: unknown, b?: unknown): void {
    const registrations = this.registrations;
    for (let i = 0; i < registrations.length; i++) {
      const registration = registrations[i]!;
      if (!registration.live) continue;
      const callback = registration.callback as UpToTwo;
      try {
        if (count >= 2) callback(a, b);
        else if (count === 1) callback(a);
        else callback();
      } catch (error) {
        this.onError(error);
      }
    }
  }

  /** Number of registered callbacks. */
  get size(): number {
    return this.registrations.length;
  }

  /** Removes every callback, e.g. when a service closes; an emit under way skips them too. */
  clear(): void {
    for (const registration of this.registrations) registration.live = false;
    this.registrations = [];
  }

  private append(registration: Registration<A>): Registration<A> {
    this.registrations = [...this.registrations, registration];
    return registration;
  }

  private remove(registration: Registration<A>): void {
    if (!registration.live) return;
    registration.live = false;
    this.registrations = this.registrations.filter((r) => r !== registration);
  }
}

/** Per-message-type listeners. */
export class TypedListeners<A extends [] | [unknown] | [unknown, unknown]> {
  private readonly byType = new Map<string, Listeners<A>>();

  constructor(private readonly onError: (error: unknown) => void) {}

  /** Registers `callback` for messages of `type`. */
  add(type: string, callback: (...args: A) => void): () => void {
    let listeners = this.byType.get(type);
    if (!listeners) this.byType.set(type, (listeners = new Listeners<A>(this.onError)));
    return listeners.add(callback);
  }

  /** Calls the callbacks for `type`; returns whether any were registered. */
  emit(type: string, ...args: A): boolean;
  emit(type: string, a?: unknown, b?: unknown): boolean {
    const listeners = this.byType.get(type);
    if (!listeners || listeners.size === 0) return false;
    listeners.emitCounted(arguments.length - 1, a, b);
    return true;
  }
}

/** The default error sink for exceptions thrown by application callbacks. */
export function reportCallbackError(error: unknown): void {
  console.error('[gale.net] a callback threw:', error);
}
