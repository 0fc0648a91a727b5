// The one LabClient (one worker, one wasm module) shared by every widget on a page. Created lazily,
// by the first widget that needs to compute, so a page whose widgets are all off-screen, or that only
// draws given matrices, starts no worker and downloads no wasm. The worker starts from the kit's own
// URL when the kit is on the page's origin (the usual case: the kit copied onto the site); from
// another origin, start-worker.ts (loaded only then) starts it through a blob: module.
import type { LabClient } from '../worker/protocol';
import workerUrl from '../worker/lab-worker.ts?worker&url';

let shared: Promise<LabClient> | null = null;

async function spawner(): Promise<() => Worker> {
  const url = new URL(workerUrl, import.meta.url);
  if (url.origin === location.origin) return () => new Worker(url, { type: 'module', name: 'attention-lab' });
  const { workerStarter } = await import('./start-worker');
  return workerStarter(url, 'attention-lab', location.href);
}

export function sharedLabClient(): Promise<LabClient> {
  if (!shared) {
    shared = Promise.all([import('../worker/client'), spawner()]).then(([m, spawn]) => m.createLabClient(spawn));
    shared.catch(() => {
      shared = null; // a failed chunk load may be retried by the next widget
    });
  }
  return shared;
}
