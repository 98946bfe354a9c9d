import type { NetworkAdvice } from '../../../../shared/netcheck/report';
import { CommandList } from './CommandList';
import { InfoIcon, WarningIcon } from '../common/Icons';

const labels: Record<NetworkAdvice['severity'], string> = { problem: 'Problem', warning: 'Warning', info: 'Tip' };

/** One piece of network advice: what, why, and commands to copy where there are any. */
export function AdviceCard({ advice }: { advice: NetworkAdvice }) {
  return (
    <li className={`advice advice-${advice.severity}`}>
      <span className="advice-icon" aria-hidden="true">
        {advice.severity === 'info' ? <InfoIcon /> : <WarningIcon />}
      </span>
      <div className="advice-body">
        <h3 className="advice-title">
          <span className="visually-hidden">{labels[advice.severity]}: </span>
          {advice.title}
        </h3>
        <p className="advice-detail">{advice.detail}</p>
        {advice.commands.length > 0 && <CommandList commands={advice.commands} />}
      </div>
    </li>
  );
}
