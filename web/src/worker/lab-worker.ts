// The one module worker that owns the wasm core and every Seq2Seq model. It loads the wasm on the
// first request (once), answers each request with the matching id, and never touches the DOM.
import { loadAttentionLab, type LabVariant } from '../lab';
import { LabHandlers, errorPayload, respond } from './handlers';
import { FULL_WORKER_NAME, type RequestMessage } from './protocol';

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

// Two builds of the core: the attention-only one is a fraction of the download, so a page whose
// widgets never train (attention, self-attention, multi-head) fetches only it. The full build is
// loaded on the first Seq2Seq request, and from then on answers every request.
const handlers: Record<LabVariant, Promise<LabHandlers> | null> = { attention: null, full: null };

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

// The article asks for the full build up front (createLabClient({variant: 'full'})): it trains anyway.
const fullFromStart = (self as { name?: string }).name === FULL_WORKER_NAME;

function ready(request: RequestMessage['request'] | undefined): Promise<LabHandlers> {
  const needsFull = typeof request?.op === 'string' && request.op.startsWith('seq2seq.');
  return load(needsFull || fullFromStart || handlers.full ? 'full' : 'attention');
}

scope.addEventListener('message', (event) => {
  const { id, request } = event.data ?? ({} as RequestMessage);
  if (typeof id !== 'number') return; // not ours
  ready(request).then(
    (h) => {
      const reply = respond(id, () => h.handle(request));
      if (reply) scope.postMessage(reply.message, reply.transfer);
    },
    (err: unknown) => {
      const error = errorPayload(err);
      error.message = `could not load the wasm core: ${error.message}`;
      scope.postMessage({ id, ok: false, error }, []);
    },
  );
});
