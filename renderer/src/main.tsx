import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { applyTheme, readStoredTheme } from './app/context';
import './styles.css';

// The last theme choice before the first paint (the core's setting confirms it a moment later).
applyTheme(readStoredTheme());

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
