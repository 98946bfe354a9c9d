import type { ConditionerStats } from './linkConditioner';
import type { DirectionStats } from './linkPipe';

function direction(name: string, s: DirectionStats): string {
  const reasons = Object.entries(s.drops)
    .filter(([, n]) => n > 0)
    .map(([reason, n]) => `${reason} ${n}`)
    .join(', ');
  const drops = reasons === '' ? `${s.dropped}` : `${s.dropped} (${reasons})`;
  return (
    `${name}: received ${s.received} (${s.receivedBytes} B), forwarded ${s.forwarded} (${s.forwardedBytes} B), ` +
    `dropped ${drops}, duplicated ${s.duplicated}, reordered ${s.reordered}, queued ${s.queued}`
  );
}

/** One human-readable line per direction plus a line for the relay itself. */
export function formatConditionerStats(stats: ConditionerStats): string {
  return [
    direction('upstream  ', stats.upstream),
    direction('downstream', stats.downstream),
    `clients: ${stats.mappings}, strays: ${stats.strays}, socket errors: ${stats.errors}`,
  ].join('\n');
}
