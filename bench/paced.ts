/** Calls `tick` `hz` times a second for `seconds`, on an absolute schedule; returns this process's CPU µs and ticks run. */
export async function paced(
  tick: (n: number) => void,
  hz: number,
  seconds: number,
): Promise<{ cpuMicros: number; ticks: number; seconds: number }> {
  const ticks = Math.round(hz * seconds);
  const start = performance.now();
  const cpu = process.cpuUsage();
  for (let n = 0; n < ticks; n++) {
    tick(n);
    const next = start + ((n + 1) * 1000) / hz;
    await new Promise((r) => setTimeout(r, Math.max(0, next - performance.now())));
  }
  const used = process.cpuUsage(cpu);
  return { cpuMicros: used.user + used.system, ticks, seconds: (performance.now() - start) / 1000 };
}
