/** Full-screen placeholder while the backend connects and the first data loads. */
export function LoadingScreen() {
  return (
    <div className="center-screen" role="status" aria-live="polite">
      <span className="brand-mark brand-mark-large spin" aria-hidden="true" />
      <p className="center-title">Connecting to LAN Party…</p>
    </div>
  );
}
