import { z } from 'zod';

/** How the renderer reaches the backend: Electron IPC, or the dev/test WebSocket binding. */
export const transportSchema = z.enum(['electron', 'websocket']);

/** One of the transports. */
export type Transport = z.output<typeof transportSchema>;

/** What `app.getInfo` returns. */
export const appInfoSchema = z.object({
  name: z.string(),
  version: z.string(),
  platform: z.string(),
  transport: transportSchema,
});

/** What `app.getInfo` returns. */
export type AppInfo = z.output<typeof appInfoSchema>;
