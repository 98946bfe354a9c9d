import { useEffect, type ReactNode } from 'react';
import { isBackKey } from '../../logic/backKey';
import { BackIcon } from './Icons';
import { useMountFocus } from './useMountFocus';

/** A sub-screen's title row: back to home (also on Escape), the title and an optional action on the right. */
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
  const heading = useMountFocus<HTMLHeadingElement>();
  useEffect(() => {
    // Every sub-screen has this header and no room or game does, so Escape goes back exactly where Back is shown.
    const onKey = (event: KeyboardEvent): void => {
      if (!isBackKey(event)) return;
      event.preventDefault();
      onBack();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onBack]);
  return (
    <div className="screen-header">
      <button
        type="button"
        className="icon-button"
        onClick={onBack}
        aria-label="Back to home"
        aria-keyshortcuts="Escape"
      >
        <BackIcon />
      </button>
      <div className="screen-heading">
        <h1 id={titleId} className="screen-title" ref={heading} tabIndex={-1}>
          {title}
        </h1>
        {subtitle && <p className="screen-subtitle">{subtitle}</p>}
      </div>
      {action && <div className="screen-action">{action}</div>}
    </div>
  );
}
