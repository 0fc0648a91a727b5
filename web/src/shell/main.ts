// The article page's entry: the page's styles, then the lab worker, started before the rest of the
// page's code is even requested, so that the worker's script and its first wasm build download and
// compile while that code arrives (the first heatmap waits for both); then the shell (shell.ts).
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
