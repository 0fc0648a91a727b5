// The worker client of the kit's file:// fallback (attention-lab-file.js, vite.config.ts swaps it
// for shared-client.ts there): a page opened from disk cannot start a worker, so every request is
// refused with the notice that says so.
import type { LabClient } from '../worker/protocol';
import { FILE_PAGE_MESSAGE, WorkerStartError } from './start-worker';

export function sharedLabClient(): Promise<LabClient> {
  return Promise.reject(new WorkerStartError(FILE_PAGE_MESSAGE.en));
}
