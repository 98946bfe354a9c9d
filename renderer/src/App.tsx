/** The app shell; the real screens arrive with the desktop-app issue. */
export function App() {
  return (
    <main className="shell">
      <h1>LAN Party</h1>
      <p>Host a room, share the code, play.</p>
    </main>
  );
}
