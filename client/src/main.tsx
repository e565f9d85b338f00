import '@picocss/pico/css/pico.jade.min.css';
import './app.css';
import { render } from 'preact';
import { App } from './app/app.tsx';
import { registerServiceWorker } from './pwa.ts';

const root = document.getElementById('app');
if (root) render(<App />, root);
registerServiceWorker();
