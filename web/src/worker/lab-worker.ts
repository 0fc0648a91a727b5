// The one module worker that owns the wasm core and every Seq2Seq model. It loads the wasm on the
// first request (once), answers each request with the matching id, and never touches the DOM.
import { loadAttentionLab, smallestVariantFor } from '../lab';
import { LabHandlers, counter, errorPayload } from './handlers';
import { ModuleRouter } from './router';
import { FULL_WORKER_NAME, type RequestMessage, type ResponseMessage } from './protocol';
import { TrainStreams, messageChannelYield, serve } from './train-stream';

interface WorkerScope {
  addEventListener(type: 'message', listener: (event: MessageEvent<RequestMessage>) => void): void;
  postMessage(message: unknown, transfer: Transferable[]): void;
}
const scope = self as unknown as WorkerScope;

/** The deliberate crash of debug.crash: thrown outside any handler so the worker's error event fires. */
function crash(): void {
  setTimeout(() => {
    throw new Error('debug.crash: the worker was stopped on purpose');
  }, 0);
}

const article = (self as { name?: string }).name === FULL_WORKER_NAME;
const router = new ModuleRouter(
  (variant) => loadAttentionLab(variant).then((lab) => new LabHandlers(lab, crash, newModelId)),
  { article },
);
// The article's first requests are attention's: its build loads at once, before they arrive (the
// page starts this worker before it mounts). Widgets load what their first request needs.
if (article) void router.handlers(smallestVariantFor('attention')).catch(() => {});
/** one id sequence for the models of every build */
const newModelId = counter();

const post = (message: ResponseMessage, transfer: ArrayBuffer[]): void => scope.postMessage(message, transfer);
const streams = new TrainStreams({
  now: () => performance.now(),
  yieldNow: messageChannelYield(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  post,
});

scope.addEventListener('message', (event) => {
  const { id, request } = event.data ?? ({} as RequestMessage);
  if (typeof id !== 'number') return; // not ours
  if (request?.op === 'memory') {
    router.memory().then(
      (result) => post({ id, ok: true, result }, []),
      (err: unknown) => post({ id, ok: false, error: errorPayload(err) }, []),
    );
    return;
  }
  router.forRequest(request).then(
    (h) => {
      serve(h, streams, id, request, post);
      router.warm();
    },
    (err: unknown) => {
      const error = errorPayload(err);
      error.message = `could not load the wasm core: ${error.message}`;
      scope.postMessage({ id, ok: false, error }, []);
    },
  );
});
