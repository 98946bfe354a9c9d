import type { NetworkAdvice, NetworkCheckReport } from '../../shared/netcheck/report';

/** What a support request needs besides the report: which app, and where its logs are. */
export interface ReportFacts {
  readonly appName: string;
  readonly version: string;
  readonly platform: string;
  /** The folder holding the app's log files; null when this run logs to the console only. */
  readonly logsDir: string | null;
}

const PORT_ROLES = { discovery: 'Finding rooms', game: 'Playing' } as const;
const SELF_TEST = { heard: 'heard', 'not-heard': 'NOT heard', failed: 'could not run', skipped: 'skipped' } as const;
const SEVERITY = { problem: 'Problem', warning: 'Warning', info: 'Tip' } as const;

function adviceLines(advice: NetworkAdvice): string[] {
  return [
    `- ${SEVERITY[advice.severity]}: ${advice.title}`,
    `  ${advice.detail}`,
    ...advice.commands.map((command) => `    ${command}`),
  ];
}

/**
 * The network check as plain text for a support request: the verdict and what to fix first, then the
 * measured facts, with the app version, platform and log folder on top. Pure.
 */
export function formatNetworkCheckText(report: NetworkCheckReport, facts: ReportFacts): string {
  const findings = report.advice.filter((advice) => advice.severity !== 'info');
  const tips = report.advice.filter((advice) => advice.severity === 'info');
  const problems = findings.filter((advice) => advice.severity === 'problem').length;
  const verdict = report.ok
    ? 'This computer is ready for LAN play.'
    : `${problems} ${problems === 1 ? 'problem' : 'problems'} found.`;
  const self = report.selfDiscovery;
  const buffer = report.receiveBuffer;
  const lines = [
    `${facts.appName} network check`,
    `App:       ${facts.appName} ${facts.version} on ${facts.platform}`,
    `Checked:   ${report.checkedAt}`,
    `Log files: ${facts.logsDir ?? 'none (this run logs to the console only)'}`,
    '',
    `Verdict: ${verdict}`,
    ...(findings.length > 0 ? ['', 'What to fix:', ...findings.flatMap(adviceLines)] : []),
    '',
    'Ports:',
    ...report.ports.map(
      (port) =>
        `- ${PORT_ROLES[port.role]}: UDP ${port.boundPort ?? port.port} on ${port.bindAddress}: ` +
        `${port.ok ? 'OK' : `problem${port.code ? ` (${port.code})` : ''}`}. ${port.message}`,
    ),
    '',
    `Discovery self-test: ${SELF_TEST[self.status]}${self.port !== null ? ` on UDP ${self.port}` : ''}. ${self.message}`,
    ...self.sendFailures.map((failure) => `- could not send to ${failure.target}: ${failure.code} ${failure.message}`),
    `Receive buffer: ${buffer.status}. ${buffer.message}`,
    `NAT (internet rooms): ${report.nat.status}. ${report.nat.title}. ${report.nat.message}`,
    ...report.nat.mappings.map((row) => `- ${row.server} saw ${row.mapped ?? 'nothing (no answer)'}`),
    `Router port mapping: ${report.router.offers.length > 0 ? report.router.offers.join(', ') : report.router.status}. ` +
      `${report.router.title}. ${report.router.message}`,
    ...(report.dht
      ? [
          `DHT (rooms with no router mapping): ${report.dht.status}${report.dht.publicAddress ? `, seen as ${report.dht.publicAddress}` : ''}. ` +
            `${report.dht.title}. ${report.dht.message}`,
        ]
      : []),
    '',
    'Networks:',
    ...(report.interfaces.length === 0
      ? ['- no IPv4 network connections found']
      : report.interfaces.map(
          (row) =>
            `- ${row.name} ${row.address}${row.prefixLength !== null ? `/${row.prefixLength}` : ''}: ` +
            (row.broadcast ? `searched via ${row.broadcast}` : `not searched (${row.skipped ?? 'skipped'})`),
        )),
    `Searches go to: ${report.broadcastTargets.join(', ') || 'nowhere'}`,
    ...(tips.length > 0 ? ['', `Tips for ${report.platform}:`, ...tips.flatMap(adviceLines)] : []),
  ];
  return `${lines.join('\n')}\n`;
}

/** A file name for the saved report, from when it was checked: lan-party-network-check-2026-01-02-2105.txt. */
export function reportFileName(checkedAt: string): string {
  const stamp = checkedAt.slice(0, 16).replace('T', '-').replace(':', '');
  return `lan-party-network-check-${/^\d{4}-\d\d-\d\d-\d{4}$/.test(stamp) ? stamp : 'report'}.txt`;
}
