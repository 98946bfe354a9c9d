import type { z } from 'zod';

/** One line naming each failing field, short enough to show a user: `playerName: Name cannot be empty`. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => (issue.path.length > 0 ? `${issue.path.map(String).join('.')}: ${issue.message}` : issue.message))
    .join('; ');
}
