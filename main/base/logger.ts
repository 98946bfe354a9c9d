/** Where main-process code reports; injected so tests can assert on warnings instead of printing them. */
export interface Logger {
  info(message: string, ...details: unknown[]): void;
  warn(message: string, ...details: unknown[]): void;
  error(message: string, ...details: unknown[]): void;
}

/** Logs to the console with a component prefix. */
export function consoleLogger(component: string): Logger {
  const prefix = `[${component}]`;
  return {
    info: (message, ...details) => console.info(prefix, message, ...details),
    warn: (message, ...details) => console.warn(prefix, message, ...details),
    error: (message, ...details) => console.error(prefix, message, ...details),
  };
}

/** Discards everything; for tests that do not care. */
export const silentLogger: Logger = { info: () => {}, warn: () => {}, error: () => {} };

/** Writes each message (its details joined with ": ") as one line; the headless host's log. */
export function lineLogger(line: (text: string) => void): Logger {
  const write = (message: string, ...details: unknown[]) => line([message, ...details.map(String)].join(': '));
  return { info: write, warn: write, error: write };
}
