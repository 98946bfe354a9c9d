import type { Reporter, TestModule } from 'vitest/node';
import { busyProjects, startBusyCore, type BusyCore } from './busyCore';

/**
 * Keeps one core busy while the projects named in `LAN_PARTY_BUSY` run (see busyProjects), so a test whose verdict
 * moves with CPU load fails here rather than on a busy machine. The spinner starts with the first file of such a
 * project and stops when the run ends (and with the process, whatever happens).
 */
export default class BusyCoreReporter implements Reporter {
  private readonly projects = busyProjects(process.env.LAN_PARTY_BUSY);
  private busy: BusyCore | undefined;
  private startedAt = 0;

  onTestModuleStart(module: TestModule): void {
    if (this.busy) return;
    const name = module.project.name;
    if (this.projects !== 'all' && !this.projects.has(name)) return;
    this.busy = startBusyCore();
    this.startedAt = performance.now();
    process.stderr.write(`[busy] one core held by a spinner (pid ${this.busy.pid}) from the first ${name} file on\n`);
  }

  async onTestRunEnd(): Promise<void> {
    const busy = this.busy;
    this.busy = undefined;
    if (!busy) return;
    // Written before the first await: reporters run side by side, and the summary's line must stay the last.
    const seconds = (performance.now() - this.startedAt) / 1000;
    process.stdout.write(`\n[busy] the spinner held a core for ${seconds.toFixed(0)} s`);
    await busy.stop();
  }
}
