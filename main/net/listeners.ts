/** A set of callbacks; `add` returns the function that removes the callback again. */
export class Listeners<A extends unknown[]> {
  private readonly callbacks = new Set<(...args: A) => void>();

  constructor(private readonly onError: (error: unknown) => void) {}

  /** Registers `callback`; the returned function unregisters it. */
  add(callback: (...args: A) => void): () => void {
    this.callbacks.add(callback);
    return () => this.callbacks.delete(callback);
  }

  /** Calls every callback; an exception in one is reported, not thrown, so the transport keeps running. */
  emit(...args: A): void {
    for (const cb of this.callbacks) {
      try {
        cb(...args);
      } catch (error) {
        this.onError(error);
      }
    }
  }

  /** Number of registered callbacks. */
  get size(): number {
    return this.callbacks.size;
  }
}

/** Per-message-type listeners. */
export class TypedListeners<A extends unknown[]> {
  private readonly byType = new Map<string, Listeners<A>>();

  constructor(private readonly onError: (error: unknown) => void) {}

  /** Registers `callback` for messages of `type`. */
  add(type: string, callback: (...args: A) => void): () => void {
    let set = this.byType.get(type);
    if (!set) this.byType.set(type, (set = new Listeners<A>(this.onError)));
    return set.add(callback);
  }

  /** Calls the callbacks for `type`; returns whether any were registered. */
  emit(type: string, ...args: A): boolean {
    const set = this.byType.get(type);
    if (!set || set.size === 0) return false;
    set.emit(...args);
    return true;
  }
}

/** The default error sink for exceptions thrown by application callbacks. */
export function reportCallbackError(error: unknown): void {
  console.error('[gale.net] a callback threw:', error);
}
