// CLI for the link conditioner: a UDP relay on loopback that simulates loss, delay, duplication, reordering and
// a bandwidth cap. `npx tsx scripts/conditioner.ts --help` lists the flags. Exit codes: 0 ok, 1 failed, 2 usage.
import { closeOnSignal, runCli } from '../main/cli/closeOnSignal';
import {
  ConditionerUsageError,
  conditionerHelp,
  formatConditionerStats,
  parseConditionerArgs,
} from './conditionerArgs';
import { LinkConditioner } from '../main/conditioner/linkConditioner';

async function main(argv: string[]): Promise<number> {
  let command;
  try {
    command = parseConditionerArgs(argv);
  } catch (error) {
    if (!(error instanceof ConditionerUsageError)) throw error;
    process.stderr.write(`conditioner: ${error.message}\nRun with --help for usage.\n`);
    return 2;
  }
  if (command.kind === 'help') {
    process.stdout.write(`${conditionerHelp()}\n`);
    return 0;
  }

  // In-thread on purpose: this process does nothing but relay, so the relay already has a thread (and event loop) to
  // itself; a WorkerConditioner would only add a hop for stats. Code that sends through the relay from its own
  // process (lab tests, benches) uses the WorkerConditioner.
  let relay: LinkConditioner;
  try {
    relay = await LinkConditioner.start(command.options);
  } catch (error) {
    process.stderr.write(`conditioner: could not start: ${(error as Error).message}\n`);
    return 1;
  }
  const { host, port } = relay.address;
  const ticker =
    command.statsIntervalMs > 0
      ? setInterval(() => process.stdout.write(`${formatConditionerStats(relay.stats())}\n`), command.statsIntervalMs)
      : undefined;
  const stopped = closeOnSignal('conditioner', async (signal) => {
    if (ticker !== undefined) clearInterval(ticker);
    const final = relay.stats();
    await relay.close();
    process.stdout.write(`conditioner: stopped (${signal})\n${formatConditionerStats(final)}\n`);
  });
  // After the handlers: whoever reads this may stop the relay at once, before this process runs again.
  process.stdout.write(
    `conditioner: listening on ${host}:${port}, relaying to ${relay.target.host}:${relay.target.port} (seed ${relay.seed})\n` +
      `upstream:   ${JSON.stringify(relay.profile('upstream'))}\n` +
      `downstream: ${JSON.stringify(relay.profile('downstream'))}\n`,
  );
  return stopped;
}

runCli('conditioner', main);
