// The one module worker that owns the wasm core and every Seq2Seq model. It loads the wasm on the
// first request (once), answers each request with the matching id, and never touches the DOM.
import { loadAttentionLab, type LabVariant } from '../lab';
import { LabHandlers, errorPayload } from './handlers';
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

// Three builds of the core. The article (createLabClient({variant: 'full'})) loads the full one up
// front: it trains anyway. Widgets (auto) load only what their requests need, each build once: the
// attention build for attention requests, the Seq2Seq build for model requests; each is a
// fraction of the full download, and a page whose widgets never train fetches no Seq2Seq code.
const handlers: Record<LabVariant, Promise<LabHandlers> | null> = { attention: null, seq2seq: null, full: null };

function load(variant: LabVariant): Promise<LabHandlers> {
  let loading = handlers[variant];
  if (!loading) {
    loading = loadAttentionLab(variant).then((lab) => new LabHandlers(lab, crash));
    loading.catch(() => {
      handlers[variant] = null; // a failed load may be retried by the next request
    });
    handlers[variant] = loading;
  }
  return loading;
}

const fullFromStart = (self as { name?: string }).name === FULL_WORKER_NAME;

/** The build that answers `request`. */
function variantFor(request: RequestMessage['request'] | undefined): LabVariant {
  if (fullFromStart) return 'full';
  const op = typeof request?.op === 'string' ? request.op : '';
  if (op.startsWith('seq2seq.')) return 'seq2seq';
  // models and their memory live in the Seq2Seq build once it is loaded
  if ((op === 'memory' || op === 'debug.crash') && handlers.seq2seq) return 'seq2seq';
  return 'attention';
}

function ready(request: RequestMessage['request'] | undefined): Promise<LabHandlers> {
  return load(variantFor(request));
}

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
  ready(request).then(
    (h) => serve(h, streams, id, request, post),
    (err: unknown) => {
      const error = errorPayload(err);
      error.message = `could not load the wasm core: ${error.message}`;
      scope.postMessage({ id, ok: false, error }, []);
    },
  );
});
