/** Shown over the shell when the WebSocket to the backend drops. */
export function ConnectionLostBanner({ onReconnect }: { onReconnect: () => void }) {
  return (
    <div className="banner" role="alert">
      <span>Lost the connection to the backend.</span>
      <button type="button" className="button button-small" onClick={onReconnect}>
        Reconnect
      </button>
    </div>
  );
}
