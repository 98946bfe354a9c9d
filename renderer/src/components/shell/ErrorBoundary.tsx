import { Component, type ErrorInfo, type ReactNode } from 'react';

interface Props {
  /** Hears the error and React's component stack (the app sends both to main's log). */
  onError: (error: unknown, componentStack: string | undefined) => void;
  children: ReactNode;
}

/**
 * Catches an error thrown while rendering: reports it and shows a way back (a reload) instead of a blank
 * window. The backend runs in main, so an open room survives the reload.
 */
export class ErrorBoundary extends Component<Props, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    this.props.onError(error, info.componentStack ?? undefined);
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <main className="center-screen">
        <div className="error-card" role="alert">
          <span className="brand-mark brand-mark-large" aria-hidden="true" />
          <h1 className="center-title">Something went wrong on this screen</h1>
          <p className="muted">
            The error was written to the log. Reload to carry on: a room you host or joined keeps running meanwhile.
          </p>
          <button type="button" className="button button-primary" onClick={() => window.location.reload()} autoFocus>
            Reload
          </button>
        </div>
      </main>
    );
  }
}
