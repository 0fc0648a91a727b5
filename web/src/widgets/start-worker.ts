// Starts the widgets' module worker when the page loads the kit from another origin
// (shared-client.ts starts it directly from the kit's URL on the kit's own origin). A module Worker
// can only be constructed from a URL of the page's own origin, so a same-origin blob: module that
// imports the kit's worker by its full URL starts instead. That needs the host's CSP to allow
// `worker-src blob:` and the kit's origin (a module worker's imports are checked against
// worker-src), and the kit's server to send Access-Control-Allow-Origin (module imports are CORS
// requests); when the CSP refuses, the error says exactly that and what to do.

/** The error a widget shows when its worker cannot start (its message is the whole explanation). */
export class WorkerStartError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WorkerStartError';
  }
}

/** The blob: bootstrap's source: one import of the worker module by its absolute URL. */
export function bootstrapSource(workerHref: string): string {
  return `import ${JSON.stringify(workerHref)};\n`;
}

/** Why a cross-origin kit's worker cannot start on this page, and the two ways out. */
export function refusedMessage(kitOrigin: string, pageOrigin: string, detail = ''): string {
  return (
    `the widget kit is on ${kitOrigin}, another origin than this page (${pageOrigin}), and this page’s Content-Security-Policy ` +
    'does not allow the blob: worker that starts it from there. Copy the attention-lab-widgets folder onto this site (then ' +
    "`worker-src 'self'` is enough), or add `worker-src blob:` and the kit's origin to the policy and serve the kit with an " +
    `Access-Control-Allow-Origin header.${detail ? ` (${detail})` : ''}`
  );
}

/** A blob: URL of a module with `source`. */
const blobModule = (source: string): string => URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));

/**
 * Starts of the kit's worker at `url` for a page at `pageUrl` (location.href): on the kit's own
 * origin directly; from another origin through a blob: module, after checking with a one-line
 * blob: worker that the page's policy allows one (a refused worker fails later and without a
 * reason; the check turns that into WorkerStartError's message, which the widget shows).
 */
export async function workerStarter(url: URL, name: string, pageUrl: string): Promise<() => Worker> {
  const page = new URL(pageUrl);
  if (url.origin === page.origin) return () => new Worker(url, { type: 'module', name });
  const allowed = await new Promise<boolean | string>((resolve) => {
    let probe: Worker;
    try {
      probe = new Worker(blobModule('postMessage(0);\n'), { type: 'module' });
    } catch (err) {
      resolve(err instanceof Error ? err.message : String(err));
      return;
    }
    const done = (ok: boolean) => {
      probe.terminate();
      resolve(ok);
    };
    probe.addEventListener('message', () => done(true));
    probe.addEventListener('error', (e) => {
      e.preventDefault();
      done(false);
    });
  });
  if (allowed !== true) throw new WorkerStartError(refusedMessage(url.origin, page.origin, typeof allowed === 'string' ? allowed : ''));
  const boot = blobModule(bootstrapSource(url.href));
  return () => new Worker(boot, { type: 'module', name });
}
