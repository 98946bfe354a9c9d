import { useEffect } from 'react';
import type { NetcheckExport as ExportResult } from '../../../../shared/ipc/schemas/netcheck';
import type { NetcheckSlice } from '../../state/netcheckSlice';
import { AdviceCard } from './AdviceCard';
import { DevConditionerSection } from './DevConditionerSection';
import { CheckIcon, RefreshIcon, WarningIcon } from '../common/Icons';
import { NetcheckDetails } from './NetcheckDetails';
import { NetcheckExport } from './NetcheckExport';
import { ScreenHeader } from '../common/ScreenHeader';
import { Spinner } from '../common/Spinner';

const platformNames: Record<string, string> = { win32: 'Windows', darwin: 'macOS', linux: 'Linux' };

/**
 * The network check: runs on open, then shows a verdict, what to fix, the facts and tips for this platform,
 * and the report to copy or save for a support request.
 */
export function NetcheckScreen({
  netcheck,
  onRun,
  onBack,
  onExport,
  canSave,
  devTools,
}: {
  netcheck: NetcheckSlice['netcheck'];
  onRun: () => void;
  onBack: () => void;
  onExport: (save: boolean) => Promise<ExportResult>;
  /** Whether a save dialog exists (the desktop app); the browser dev mode can only copy. */
  canSave: boolean;
  /** Whether to offer the developer tools (logic/developerTools.ts). */
  devTools: boolean;
}) {
  const { status, report, error } = netcheck;
  useEffect(() => {
    if (status === 'idle') onRun();
  }, [status, onRun]);

  const running = status === 'running';
  const findings = report?.advice.filter((a) => a.severity !== 'info') ?? [];
  const tips = report?.advice.filter((a) => a.severity === 'info') ?? [];
  const problems = findings.filter((a) => a.severity === 'problem').length;

  return (
    <section className="screen" aria-labelledby="netcheck-title">
      <ScreenHeader
        title="Network check"
        titleId="netcheck-title"
        subtitle="Can this computer host rooms and find them? Ports, firewall and discovery, checked here."
        onBack={onBack}
        action={
          <button type="button" className="button button-ghost" onClick={onRun} disabled={running}>
            {running ? <Spinner /> : <RefreshIcon />}
            <span>{running ? 'Checking…' : 'Check again'}</span>
          </button>
        }
      />
      {error && (
        <div className="alert alert-error" role="alert">
          The check could not run: {error}
        </div>
      )}
      {running && !report && (
        <div className="card progress-card" role="status" aria-live="polite">
          <Spinner />
          <span>Checking ports, discovery and network connections…</span>
        </div>
      )}
      {report && (
        <>
          <div className={`verdict ${report.ok ? 'verdict-ok' : 'verdict-bad'}`} role="status" aria-live="polite">
            <span className="verdict-icon" aria-hidden="true">
              {report.ok ? <CheckIcon size={28} /> : <WarningIcon size={28} />}
            </span>
            <div>
              <h2 className="verdict-title">
                {report.ok
                  ? 'This computer is ready for LAN play'
                  : `${problems} ${problems === 1 ? 'problem' : 'problems'} found`}
              </h2>
              <p className="muted">
                {report.ok
                  ? 'Ports open, and it hears its own searches. If friends still can’t connect, check their computers and the tips below.'
                  : 'Fix these and run the check again. Until then, joining by code or address may still work.'}
              </p>
            </div>
          </div>
          {findings.length > 0 && (
            <ul className="advice-list" aria-label="What to fix">
              {findings.map((advice) => (
                <AdviceCard key={advice.id} advice={advice} />
              ))}
            </ul>
          )}
          <NetcheckExport onExport={onExport} canSave={canSave} />
          <NetcheckDetails report={report} />
          <h2 className="section-title">Tips for {platformNames[report.platform] ?? report.platform}</h2>
          <ul className="advice-list" aria-label="Tips">
            {tips.map((advice) => (
              <AdviceCard key={advice.id} advice={advice} />
            ))}
          </ul>
        </>
      )}
      {devTools && <DevConditionerSection />}
    </section>
  );
}
