import '@fontsource/inter/latin-400.css';
import '@fontsource/inter/latin-500.css';
import '@fontsource/inter/latin-600.css';
import '@fontsource/inter/latin-700.css';
import '@fontsource/inter/cyrillic-400.css';
import '@fontsource/inter/cyrillic-500.css';
import '@fontsource/inter/cyrillic-600.css';
import '@fontsource/inter/cyrillic-700.css';
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './app/global.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { createQueryClient } from './app/queryClient';
import { createAppRouter, prefetchFirstScreen } from './app/router';

// After a deploy, an open page may ask for a lazy screen of the previous build, which is gone (404):
// load the new build once instead of showing an error. Not again within a minute, so it cannot loop.
window.addEventListener('vite:preloadError', (event) => {
  const key = 'lms:reloaded-for-new-build';
  const last = Number(sessionStorage.getItem(key) ?? 0);
  if (Date.now() - last < 60_000) return;
  sessionStorage.setItem(key, String(Date.now()));
  event.preventDefault();
  window.location.reload();
});

const root = document.getElementById('root');
if (!root) throw new Error('Root element #root is missing');

// Before the first render: the first screen's calls and code start loading while React starts.
const queryClient = createQueryClient();
prefetchFirstScreen(queryClient, window.location.pathname);
const router = createAppRouter();

createRoot(root).render(
  <StrictMode>
    <App queryClient={queryClient} router={router} />
  </StrictMode>,
);
