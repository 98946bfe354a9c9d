import { z } from 'zod';

/** `netcheck.exportReport` input: `save` also asks main to save it to a file the player picks. */
export const netcheckExportInputSchema = z.strictObject({ save: z.boolean() });

/** `netcheck.exportReport` output: the last report as text for a support request, and where it was saved. */
export const netcheckExportSchema = z.strictObject({
  text: z.string(),
  /** The file written; null when not asked to save, or the player cancelled the dialog. */
  savedTo: z.string().nullable(),
});

/** What `netcheck.exportReport` returns. */
export type NetcheckExport = z.output<typeof netcheckExportSchema>;
