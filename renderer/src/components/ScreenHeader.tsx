import type { ReactNode } from 'react';
import { BackIcon } from './Icons';

/** A sub-screen's title row: back to home, the title and an optional action on the right. */
export function ScreenHeader({
  title,
  subtitle,
  titleId,
  onBack,
  action,
}: {
  title: string;
  subtitle?: ReactNode;
  titleId: string;
  onBack: () => void;
  action?: ReactNode;
}) {
  return (
    <div className="screen-header">
      <button type="button" className="icon-button" onClick={onBack} aria-label="Back to home">
        <BackIcon />
      </button>
      <div className="screen-heading">
        <h1 id={titleId} className="screen-title">
          {title}
        </h1>
        {subtitle && <p className="screen-subtitle">{subtitle}</p>}
      </div>
      {action && <div className="screen-action">{action}</div>}
    </div>
  );
}
