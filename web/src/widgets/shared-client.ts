// The one LabClient (one worker, one wasm module) shared by every widget on a page. Created lazily,
// by the first widget that needs to compute, so a page whose widgets are all off-screen, or that only
// draws given matrices, starts no worker and downloads no wasm.
import type { LabClient } from '../worker/protocol';
import workerUrl from '../worker/lab-worker.ts?worker&url';
import { startModuleWorker } from './start-worker';

let shared: Promise<LabClient> | null = null;

export function sharedLabClient(): Promise<LabClient> {
  if (!shared) {
    shared = import('../worker/client').then(
      (m) => new m.WorkerLabClient(() => startModuleWorker(new URL(workerUrl, import.meta.url), 'attention-lab', location.href)),
    );
    shared.catch(() => {
      shared = null; // a failed chunk load may be retried by the next widget
    });
  }
  return shared;
}
