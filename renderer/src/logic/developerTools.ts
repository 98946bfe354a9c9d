import type { Transport } from '../../../shared/ipc/schemas/appInfo';

/**
 * Whether developer tools (the simulated bad network) are shown: in a Vite dev build, and when the page runs
 * against the dev WebSocket binding (`npm run dev:web`, which the e2e suites use with the production build);
 * never in the desktop app players install.
 */
export function showsDeveloperTools(transport: Transport, devBuild: boolean): boolean {
  return devBuild || transport === 'websocket';
}
