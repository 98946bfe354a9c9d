import { z } from 'zod';
import type { ContractShape } from './contractTypes';
import { networkCheckReportSchema } from '../netcheck/report';
import { appInfoSchema, errorReportResultSchema, errorReportSchema } from './schemas/appInfo';
import { netcheckExportInputSchema, netcheckExportSchema } from './schemas/netcheck';
import {
  gameCurrentSchema,
  gameEndedSchema,
  gameInputRequestSchema,
  gameInputResultSchema,
  gameResultsSchema,
  gameRosterSchema,
  gameSnapshotEventSchema,
  netStatsSchema,
} from './schemas/game';
import { lanAddServerInputSchema, lanListSchema, lanRemoveServerInputSchema } from './schemas/lan';
import {
  chatInputSchema,
  hostRoomInputSchema,
  joinByAddressInputSchema,
  joinByCodeInputSchema,
  kickInputSchema,
  lobbyViewSchema,
  hostAddressesSchema,
  setReadyInputSchema,
} from './schemas/lobby';
import { settingsPatchSchema, settingsViewSchema } from './schemas/settings';
import {
  deepLinkSchema,
  openScreenSchema,
  shellNoticeSchema,
  shellPendingSchema,
  updateStatusSchema,
} from './schemas/shell';

/** A developer's simulated bad network (both directions); main validates ranges again with the conditioner's rules. */
const devLinkProfileSchema = z.strictObject({
  loss: z.number().min(0).max(1),
  latencyMs: z.number().min(0).max(60_000),
  jitterMs: z.number().min(0).max(60_000),
});
/** `dev.getConditioner` / `dev.setConditioner` output: the chosen profile and whether the current stay uses it. */
const devConditionerViewSchema = z.strictObject({ profile: devLinkProfileSchema.nullable(), active: z.boolean() });

/**
 * The IPC contract as data: every request (input and output schema) and every event main pushes. Each key is the
 * one place its name is written: names.ts, the preload's bridge and the handler types all read it from here.
 */
export const ipcContract = {
  requests: {
    'app.reportError': { input: errorReportSchema, output: errorReportResultSchema },
    'netcheck.exportReport': { input: netcheckExportInputSchema, output: netcheckExportSchema },
    'app.getInfo': { input: z.undefined(), output: appInfoSchema },
    'settings.get': { input: z.undefined(), output: settingsViewSchema },
    'settings.update': { input: settingsPatchSchema, output: settingsViewSchema },
    // Room commands answer nothing: the view they make arrives once, as `lobby.changed` (ordered by revision).
    'lobby.get': { input: z.undefined(), output: lobbyViewSchema },
    'lobby.host': { input: hostRoomInputSchema, output: z.void() },
    'lobby.joinByCode': { input: joinByCodeInputSchema, output: z.void() },
    'lobby.addresses': { input: z.undefined(), output: hostAddressesSchema },
    'lobby.joinByAddress': { input: joinByAddressInputSchema, output: z.void() },
    'lobby.leave': { input: z.undefined(), output: z.void() },
    'lobby.setReady': { input: setReadyInputSchema, output: z.void() },
    'lobby.chat': { input: chatInputSchema, output: z.void() },
    'lobby.kick': { input: kickInputSchema, output: z.void() },
    'lobby.start': { input: z.undefined(), output: z.void() },
    'lobby.endRound': { input: z.undefined(), output: z.void() },
    'lan.start': { input: z.undefined(), output: lanListSchema },
    'lan.stop': { input: z.undefined(), output: lanListSchema },
    'lan.refresh': { input: z.undefined(), output: lanListSchema },
    'lan.addServer': { input: lanAddServerInputSchema, output: lanListSchema },
    'lan.removeServer': { input: lanRemoveServerInputSchema, output: lanListSchema },
    'netcheck.run': { input: z.undefined(), output: networkCheckReportSchema },
    'game.get': { input: z.undefined(), output: gameCurrentSchema },
    'game.input': { input: gameInputRequestSchema, output: gameInputResultSchema },
    // The host's "End round": the running round ends now as if its time had run out, results for everyone.
    'game.finishRound': { input: z.undefined(), output: z.void() },
    'net.stats': { input: z.undefined(), output: netStatsSchema },
    'dev.getConditioner': { input: z.undefined(), output: devConditionerViewSchema },
    'dev.setConditioner': {
      input: z.strictObject({ profile: devLinkProfileSchema.partial().nullable() }),
      output: devConditionerViewSchema,
    },
    // Desktop shell. `app.pending` hands over (once) what came while no page listened; later ones come as events.
    'app.pending': { input: z.undefined(), output: shellPendingSchema },
    'app.updateStatus': { input: z.undefined(), output: updateStatusSchema },
    'app.installUpdate': { input: z.undefined(), output: updateStatusSchema },
  },
  events: {
    'settings.changed': settingsViewSchema,
    'lobby.changed': lobbyViewSchema,
    'lan.servers': lanListSchema,
    'game.roster': gameRosterSchema,
    'game.snapshot': gameSnapshotEventSchema,
    'game.results': gameResultsSchema,
    'game.ended': gameEndedSchema,
    // Desktop shell.
    'app.deepLink': deepLinkSchema,
    'app.notice': shellNoticeSchema,
    'app.update': updateStatusSchema,
    'app.openScreen': openScreenSchema,
  },
} as const satisfies ContractShape;

/** The app's contract type. */
export type IpcContract = typeof ipcContract;
