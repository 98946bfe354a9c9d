import { z } from 'zod';
import type { EventName, RequestName } from './names';
import type { RequestSpec } from './contractTypes';
import { appInfoSchema } from './schemas/appInfo';
import { settingsPatchSchema, settingsSchema } from './schemas/settings';

/**
 * The IPC contract as data: every request (input and output schema) and every event main pushes.
 * `satisfies` ties it to names.ts, so a name without a schema (or a schema without a name) fails to compile.
 */
export const ipcContract = {
  requests: {
    'app.getInfo': { input: z.undefined(), output: appInfoSchema },
    'settings.get': { input: z.undefined(), output: settingsSchema },
    'settings.update': { input: settingsPatchSchema, output: settingsSchema },
  },
  events: {
    'settings.changed': settingsSchema,
  },
} as const satisfies {
  requests: { readonly [K in RequestName]: RequestSpec };
  events: { readonly [K in EventName]: z.ZodType };
};

/** The app's contract type. */
export type IpcContract = typeof ipcContract;
