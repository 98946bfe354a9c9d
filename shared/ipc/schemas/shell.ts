import { z } from 'zod';

/** A room link from outside the app (`lanparty://join/<code>`), already checked; the code in its canonical form. */
export const deepLinkSchema = z.strictObject({
  kind: z.literal('join'),
  code: z.string().min(1).max(96),
});

/** A checked room link. */
export type DeepLink = z.output<typeof deepLinkSchema>;

/** Something the shell did behind the page's back, shown once as a banner: the page was reloaded after a crash or hang. */
export const shellNoticeSchema = z.strictObject({
  kind: z.enum(['renderer-crashed', 'renderer-hung']),
});

/** A one-time shell notice. */
export type ShellNotice = z.output<typeof shellNoticeSchema>;

/** `app.pending`: what arrived while no page was listening (a link clicked before the window was up, a crash notice). */
export const shellPendingSchema = z.strictObject({
  deepLink: deepLinkSchema.nullable(),
  notice: shellNoticeSchema.nullable(),
});

/** What `app.pending` returns. */
export type ShellPending = z.output<typeof shellPendingSchema>;

/**
 * Where updating is: `disabled` (a development run, or a build without an update feed), `idle` (checking or up to
 * date), `downloading` a newer version in the background, or `ready` to install on restart.
 */
export const updateStatusSchema = z.discriminatedUnion('state', [
  z.strictObject({ state: z.literal('disabled') }),
  z.strictObject({ state: z.literal('idle') }),
  z.strictObject({ state: z.literal('downloading'), version: z.string().max(64) }),
  z.strictObject({ state: z.literal('ready'), version: z.string().max(64) }),
]);

/** Where updating is. */
export type UpdateStatus = z.output<typeof updateStatusSchema>;

/** `app.openScreen`: the menu asks the page to show one of its screens. */
export const openScreenSchema = z.strictObject({ screen: z.enum(['netcheck']) });

/** A screen the menu can open. */
export type OpenScreen = z.output<typeof openScreenSchema>;
