/** Full-screen failure with the reason and a retry. */
export function ErrorScreen({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <main className="center-screen">
      <div className="error-card" role="alert">
        <span className="brand-mark brand-mark-large" aria-hidden="true" />
        <h1 className="center-title">Can’t reach the LAN Party backend</h1>
        <p className="muted">{message}</p>
        <button type="button" className="button button-primary" onClick={onRetry} autoFocus>
          Try again
        </button>
      </div>
    </main>
  );
}
