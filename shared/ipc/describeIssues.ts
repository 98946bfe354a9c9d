import type { z } from 'zod';
import { clipText } from '../text/normalizeText';

/** Longest piece of the caller's own input (a key, a path segment) repeated back in an error. */
const ECHO_MAX = 64;

/** One issue's text; unknown keys are named again here so a 40 KB key does not come back whole. */
function messageOf(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys.slice(0, 3).map((key) => JSON.stringify(clipText(key, ECHO_MAX)));
    const more = issue.keys.length > 3 ? ` and ${issue.keys.length - 3} more` : '';
    return `Unrecognized key${issue.keys.length === 1 ? '' : 's'}: ${keys.join(', ')}${more}`;
  }
  return clipText(issue.message, 200);
}

/** One line naming each failing field, short enough to show a user: `playerName: Name cannot be empty`. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => {
      const path = issue.path.map((segment) => clipText(String(segment), ECHO_MAX)).join('.');
      return path.length > 0 ? `${path}: ${messageOf(issue)}` : messageOf(issue);
    })
    .join('; ');
}
