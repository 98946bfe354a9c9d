import {
  ERROR_REPORT_MESSAGE_MAX,
  ERROR_REPORT_STACK_MAX,
  type ErrorReport,
  type ErrorSource,
} from '../../../shared/ipc/schemas/appInfo';
import { clipText } from '../../../shared/text/normalizeText';

/** Cuts text to at most `max` characters, the cut mark included (the schema's bound). */
const clip = (text: string, max: number): string => (text.length <= max ? text : clipText(text, max - 1));

/** Words for a thrown value that is not an Error (a string, an object, undefined…); never throws. */
function describeValue(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    try {
      return String(value);
    } catch {
      return 'a value that cannot be printed';
    }
  }
}

/**
 * An `app.reportError` payload for anything thrown or rejected, cut to the contract's bounds; a React
 * component stack goes after the error's own. Pure.
 */
export function toErrorReport(source: ErrorSource, error: unknown, componentStack?: string): ErrorReport {
  const message = error instanceof Error ? `${error.name}: ${error.message}` : describeValue(error);
  const stacks = [error instanceof Error ? error.stack : undefined, componentStack && `Components:${componentStack}`];
  const stack = stacks.filter((part): part is string => Boolean(part)).join('\n');
  return {
    source,
    message: clip(message, ERROR_REPORT_MESSAGE_MAX),
    ...(stack ? { stack: clip(stack, ERROR_REPORT_STACK_MAX) } : {}),
  };
}
