// `npm run dist`: electron-builder with LAN_PARTY_UPDATE_URL defaulted to '' (a build without updates), because
// electron-builder.yml's publish URL is `${env.LAN_PARTY_UPDATE_URL}` and electron-builder refuses an unset one.
// The same variable was read by `vite build` just before (main/shell/desktop/updateFeed.ts), so app and feed agree.
// A feed must be https and the source tree must carry the update-signing public key: the app would refuse
// every update otherwise (main/shell/desktop/updates.ts), so such a build is refused here, before packing.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { UPDATE_SIGNING_KEY } from '../main/shell/desktop/updateSigningKey';
import { updateFeedProblem } from './updateFeedProblem';

const require = createRequire(import.meta.url);
const env = { ...process.env, LAN_PARTY_UPDATE_URL: process.env.LAN_PARTY_UPDATE_URL ?? '' };
const problem = updateFeedProblem(env.LAN_PARTY_UPDATE_URL, UPDATE_SIGNING_KEY);
if (problem) {
  process.stderr.write(`dist: ${problem}\n`);
  process.exit(1);
}
if (env.LAN_PARTY_UPDATE_URL === '') process.stdout.write('dist: no LAN_PARTY_UPDATE_URL, building without updates\n');
const cli = require.resolve('electron-builder/cli.js');
const result = spawnSync(process.execPath, [cli, ...process.argv.slice(2)], { stdio: 'inherit', env });
process.exit(result.status ?? 1);
