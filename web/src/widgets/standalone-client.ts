// The worker client of the standalone pages (embed/standalone.ts; vite.config.ts swaps it for
// shared-client.ts in the `kit-standalone` build): the worker's code, with its one wasm build as a
// data: URL, is inlined in the page's script and started from a blob: URL, so a page opened from
// disk, offline, computes and trains (Chromium allows a blob: module worker on a file:// page).
import LabWorker from '../worker/lab-worker.ts?worker&inline';
import type { LabClient } from '../worker/protocol';
import { createLabClient } from '../worker/client';

let shared: Promise<LabClient> | null = null;

export function sharedLabClient(): Promise<LabClient> {
  shared ??= Promise.resolve(createLabClient(() => new LabWorker({ name: 'attention-lab' })));
  return shared;
}
