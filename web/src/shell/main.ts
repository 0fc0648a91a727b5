// The article page's entry. It starts the lab worker before anything else, so that the worker's
// script and the first wasm build download and compile while the page's own code arrives (the
// first heatmap waits for both), then loads the shell (shell.ts) and the page's styles.
import '../design.css';
import './style.css';
import { createLabClient } from '../worker/client';

const lab = createLabClient({ variant: 'full' }); // the article trains: one client, one worker
lab.start();
import('./shell').then(
  ({ boot }) => boot(lab),
  (err: unknown) => {
    const status = document.getElementById('boot-status');
    if (status) status.textContent = `Could not start: ${err instanceof Error ? err.message : String(err)}`;
    document.body.dataset.ready = 'error';
  },
);
