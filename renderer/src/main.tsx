import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { browserSocket } from './api/browserSocket';
import { connectBackend } from './api/connectBackend';
import { createAppStore } from './state/appStore';
import { AppStoreProvider } from './state/AppStoreContext';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('LAN Party: #root element missing from index.html');
const store = createAppStore(() =>
  connectBackend(window, browserSocket, (message) => console.warn('[lanParty]', message)),
);
createRoot(root).render(
  <StrictMode>
    <AppStoreProvider store={store}>
      <App store={store} />
    </AppStoreProvider>
  </StrictMode>,
);
