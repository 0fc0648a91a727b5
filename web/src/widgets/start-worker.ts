// Starts the widgets' module worker wherever the widget script lives. A module Worker can only be
// constructed from a URL of the page's own origin: when the kit is copied onto the host's site (the
// usual case) that is its own URL; when the page loads the kit from another origin, a same-origin
// blob: module that imports the kit's worker by its full URL starts instead. That needs the host's
// CSP to allow `worker-src blob:` and the kit's server to send Access-Control-Allow-Origin (module
// imports are CORS requests); when the CSP refuses, the error says exactly that and what to do.

/** The error a widget shows when its worker cannot start (its message is the whole explanation). */
export class WorkerStartError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WorkerStartError';
  }
}

/** What a widget says in its place on a page opened from disk (file://), where it cannot compute. */
export const FILE_PAGE_MESSAGE = {
  en:
    'this page was opened from a file (file://), where browsers do not let the widget start its worker or load its WebAssembly. ' +
    'Serve the folder with a web server (for example `npx serve` or `python3 -m http.server` in it) and open the page through http://localhost.',
  zh: '此页面是从文件（file://）打开的，浏览器不允许组件在这里启动 Worker 或加载 WebAssembly。请用网页服务器提供该文件夹（例如在其中运行 `npx serve` 或 `python3 -m http.server`），再通过 http://localhost 打开页面。',
} as const;

/** The blob: bootstrap's source: one import of the worker module by its absolute URL. */
export function bootstrapSource(workerHref: string): string {
  return `import ${JSON.stringify(workerHref)};\n`;
}

/**
 * A module worker running `url`, named `name` (the worker reads its name). `pageUrl` is the page's
 * address (location.href), a parameter for the unit tests.
 */
export function startModuleWorker(url: URL, name: string, pageUrl: string, make = (u: string, o: WorkerOptions) => new Worker(u, o)): Worker {
  const page = new URL(pageUrl);
  if (page.protocol === 'file:') throw new WorkerStartError(FILE_PAGE_MESSAGE.en);
  if (url.origin === page.origin) return make(url.href, { type: 'module', name });
  const boot = URL.createObjectURL(new Blob([bootstrapSource(url.href)], { type: 'text/javascript' }));
  try {
    return make(boot, { type: 'module', name });
  } catch (err) {
    throw new WorkerStartError(
      `the widget kit is on ${url.origin}, another origin than this page (${page.origin}), and this page’s Content-Security-Policy ` +
        'does not allow the blob: worker that starts it from there. Copy the attention-lab-widgets folder onto this site (then ' +
        "`worker-src 'self'` is enough), or add `worker-src blob:` to the policy and serve the kit with an Access-Control-Allow-Origin header. " +
        `(${err instanceof Error ? err.message : String(err)})`,
    );
  }
}
