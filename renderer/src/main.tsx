import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { browserSocket } from './api/browserSocket';
import { connectBackend } from './api/connectBackend';
import { createErrorReporter, listenForErrors } from './api/errorReporter';
import { ErrorBoundary } from './components/shell/ErrorBoundary';
import { createAppStore } from './state/appStore';
import { AppStoreProvider } from './state/AppStoreContext';
import './styles.css';

// The page's errors go to main's log file (a packaged app has no console to read), queued until connected.
const errors = createErrorReporter((message, error) => console.warn('[lanParty]', message, error));
listenForErrors(window, errors);

const root = document.getElementById('root');
if (!root) throw new Error('LAN Party: #root element missing from index.html');
const store = createAppStore(async () => {
  const connection = await connectBackend(window, browserSocket, (message) => console.warn('[lanParty]', message));
  errors.setApi(connection.api);
  connection.onClose(() => errors.setApi(null));
  return connection;
});
createRoot(root).render(
  <StrictMode>
    <ErrorBoundary onError={(error, componentStack) => errors.report('render', error, componentStack)}>
      <AppStoreProvider store={store}>
        <App store={store} />
      </AppStoreProvider>
    </ErrorBoundary>
  </StrictMode>,
);
