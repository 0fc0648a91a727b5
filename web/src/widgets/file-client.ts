// The worker client of the kit's file:// fallback (attention-lab-file.js, vite.config.ts swaps it
// for shared-client.ts there): a page opened from disk cannot start a worker, so every request is
// refused with the notice that says so.
import type { LabClient } from '../worker/protocol';
import { WorkerStartError } from './start-worker';

/** What a widget says in its place on a page opened from disk (file://), where it cannot compute. */
export const FILE_PAGE_MESSAGE = {
  en:
    'this page was opened from a file (file://), where browsers do not let the widget start its worker or load its WebAssembly. ' +
    'Serve the folder with a web server (for example `npx serve` or `python3 -m http.server` in it) and open the page through http://localhost.',
  zh: '此页面是从文件（file://）打开的，浏览器不允许组件在这里启动 Worker 或加载 WebAssembly。请用网页服务器提供该文件夹（例如在其中运行 `npx serve` 或 `python3 -m http.server`），再通过 http://localhost 打开页面。',
} as const;

export function sharedLabClient(): Promise<LabClient> {
  return Promise.reject(new WorkerStartError(FILE_PAGE_MESSAGE.en));
}
