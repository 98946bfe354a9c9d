import type {
  InterfaceReport,
  NetworkAdvice,
  PortCheck,
  ReceiveBufferReport,
  SelfDiscoveryReport,
} from '../../shared/netcheck/report';
import { GOOD_RECEIVE_BUFFER } from './receiveBuffer';

/** The check results the advice is drawn from. */
export interface Findings {
  readonly interfaces: readonly InterfaceReport[];
  readonly ports: readonly PortCheck[];
  readonly selfDiscovery: SelfDiscoveryReport;
  readonly receiveBuffer: ReceiveBufferReport;
}

function portAdvice(check: PortCheck): NetworkAdvice {
  const fix =
    check.code === 'EADDRINUSE'
      ? check.role === 'game'
        ? 'Close the other program (or room), or host on another port.'
        : 'Close the other program listening on it (another game server, perhaps) and check again.'
      : check.code === 'EACCES'
        ? 'Use a port above 1024, or ask whoever manages this computer what blocks it.'
        : 'Check the address and port, then try again.';
  return {
    id: `port-${check.role}`,
    severity: 'problem',
    title: `UDP port ${check.port} is not available`,
    detail: `${check.message} ${fix}`,
    commands: [],
  };
}

/** Problems and warnings found by the checks, most serious first. Pure. */
export function findingAdvice(findings: Findings, platform: string): NetworkAdvice[] {
  const advice: NetworkAdvice[] = findings.ports.filter((check) => !check.ok).map(portAdvice);
  const { selfDiscovery } = findings;
  if (selfDiscovery.status === 'not-heard' || selfDiscovery.status === 'failed') {
    advice.push({
      id: 'self-discovery',
      severity: 'problem',
      title: 'This computer did not hear its own search',
      detail:
        `${selfDiscovery.message} ` +
        (platform === 'linux'
          ? 'Check that no firewall rule drops UDP on the loopback interface (sudo nft list ruleset).'
          : 'Check security software that filters network traffic.'),
      commands: platform === 'linux' ? ['sudo nft list ruleset'] : [],
    });
  }
  if (!findings.interfaces.some((row) => row.broadcast !== null)) {
    advice.push({
      id: 'no-lan',
      severity: 'problem',
      title: 'No network to search',
      detail:
        'This computer has no network connection with a broadcast address (only loopback or VPN addresses), ' +
        'so searches reach nobody. Connect to the Wi-Fi or wired network the other players use.',
      commands: [],
    });
  }
  if (findings.receiveBuffer.status === 'clamped') {
    const target = Math.max(GOOD_RECEIVE_BUFFER, findings.receiveBuffer.requestedBytes);
    advice.push({
      id: 'receive-buffer',
      severity: 'warning',
      title: 'Small network receive buffer',
      detail:
        `${findings.receiveBuffer.message}` +
        (platform === 'linux' ? ' Raise the limit (the second command keeps it after a restart):' : ''),
      commands:
        platform === 'linux'
          ? [
              `sudo sysctl -w net.core.rmem_max=${target}`,
              `echo 'net.core.rmem_max=${target}' | sudo tee /etc/sysctl.d/60-lan-party.conf`,
            ]
          : [],
    });
  }
  return advice;
}
