// The article page's entry: the page's styles, then the lab worker, started before the rest of the
// page's code is even requested, so that the worker's script and its first wasm build download and
// compile while that code arrives (the first heatmap waits for both); then the shell (shell.ts).
import '../design.css';
import './style.css';
import { createLabClient, labWorker } from '../worker/client';
import { showBootError } from './boot-error';

const lab = createLabClient(labWorker('full')); // the article trains: one client, one worker
lab.start();
import('./shell').then(({ boot }) => boot(lab), showBootError);
