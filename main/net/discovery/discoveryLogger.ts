/** Where discovery reports problems it survives (send errors, bind trouble). Injected so tests stay quiet. */
export interface DiscoveryLogger {
  warn(message: string, details?: Readonly<Record<string, unknown>>): void;
  debug(message: string, details?: Readonly<Record<string, unknown>>): void;
}

/** Logs warnings to the console and drops debug output. */
export const consoleDiscoveryLogger: DiscoveryLogger = {
  warn(message, details) {
    console.warn(`[lan-discovery] ${message}`, details ?? '');
  },
  debug() {},
};

/** Discards everything (tests). */
export const silentDiscoveryLogger: DiscoveryLogger = { warn() {}, debug() {} };
