import type { Logger } from '../../base/logger';

/** Event name → listener signature. */
export type EventMap = { [event: string]: (...args: never[]) => void };

/** A minimal typed event emitter whose listeners cannot break the emitter by throwing. */
export class TypedEmitter<Events extends EventMap> {
  private readonly listeners = new Map<keyof Events, Set<Events[keyof Events]>>();

  constructor(private readonly logger: Logger) {}

  /** Adds a listener; returns a function that removes it. */
  on<E extends keyof Events>(event: E, listener: Events[E]): () => void {
    let set = this.listeners.get(event);
    if (!set) {
      set = new Set();
      this.listeners.set(event, set);
    }
    set.add(listener);
    return () => {
      set.delete(listener);
    };
  }

  /** Calls every listener of `event`; a throwing listener is logged and the rest still run. */
  emit<E extends keyof Events>(event: E, ...args: Parameters<Events[E]>): void {
    for (const listener of [...(this.listeners.get(event) ?? [])]) {
      try {
        (listener as (...a: Parameters<Events[E]>) => void)(...args);
      } catch (error) {
        this.logger.warn(`listener for '${String(event)}' threw`, { error: String(error) });
      }
    }
  }
}
