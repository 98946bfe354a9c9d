import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Records every uncaught exception and unhandled rejection until `stop()`. */
export function captureProcessErrors(): { errors: unknown[]; stop(): void } {
  const errors: unknown[] = [];
  const onError = (error: unknown) => errors.push(error);
  process.on('uncaughtException', onError);
  process.on('unhandledRejection', onError);
  return {
    errors,
    stop: () => {
      process.off('uncaughtException', onError);
      process.off('unhandledRejection', onError);
    },
  };
}

let gc: (() => void) | undefined | null = null;

/** V8's gc(), exposed at run time (the flag takes effect for new contexts); undefined if the runtime refuses. */
export function exposedGc(): (() => void) | undefined {
  if (gc !== null) return gc;
  const existing = (globalThis as { gc?: () => void }).gc;
  if (typeof existing === 'function') return (gc = existing);
  try {
    setFlagsFromString('--expose-gc');
    const fn = runInNewContext('gc') as unknown;
    gc = typeof fn === 'function' ? (fn as () => void) : undefined;
  } catch {
    gc = undefined;
  }
  return gc;
}

/** Heap in use after full collections (settling between them), in bytes; undefined when gc is unavailable. */
export async function settledHeapUsed(): Promise<number | undefined> {
  const collect = exposedGc();
  if (!collect) return undefined;
  for (let i = 0; i < 3; i++) {
    collect();
    await new Promise((r) => setImmediate(r));
  }
  return process.memoryUsage().heapUsed;
}
