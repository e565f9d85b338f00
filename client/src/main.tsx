import '@picocss/pico/css/pico.jade.min.css';
import './app.css';
import { render } from 'preact';
import { currentToken } from './api.ts';
import { App } from './app/app.tsx';
import { installErrorReporting } from './error-reporting.ts';
import { registerServiceWorker } from './pwa.ts';

// First, so an error while the app starts is reported too.
installErrorReporting({ version: __APP_VERSION__, token: currentToken });

const root = document.getElementById('app');
if (root) render(<App />, root);
registerServiceWorker();
