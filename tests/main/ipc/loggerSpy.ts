import { vi, type Mock } from 'vitest';
import type { Logger } from '../../../main/base/logger';

type LogFn = (message: string, ...details: unknown[]) => void;

/** A Logger whose calls tests can inspect. */
export function loggerSpy(): Logger & { info: Mock<LogFn>; warn: Mock<LogFn>; error: Mock<LogFn> } {
  return { info: vi.fn<LogFn>(), warn: vi.fn<LogFn>(), error: vi.fn<LogFn>() };
}
