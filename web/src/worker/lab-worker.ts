// The one module worker that owns the wasm core and every model. It serves LabApi (protocol.ts)
// through the router, which loads each wasm build on the first call that needs it (once), and
// never touches the DOM.
import { loadAttentionLab, smallestVariantFor } from '../lab';
import { expose, type Scope } from './expose';
import { LabHandlers, counter } from './handlers';
import { FULL_WORKER_NAME } from './protocol';
import { ModuleRouter } from './router';
import { TrainStreams, messageChannelYield } from './train-stream';

/** The deliberate crash of debug.crash: thrown outside any call so the worker's error event fires. */
function crash(): void {
  setTimeout(() => {
    throw new Error('debug.crash: the worker was stopped on purpose');
  }, 0);
}

/** one id sequence for the models of every build, one set of training streams */
const shared = {
  newModelId: counter(),
  streams: new TrainStreams({
    now: () => performance.now(),
    yieldNow: messageChannelYield(),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  }),
};
const article = (self as { name?: string }).name === FULL_WORKER_NAME;
const router = new ModuleRouter((variant) => loadAttentionLab(variant).then((lab) => new LabHandlers(lab, crash, shared)), { article });
// The article's first calls are attention's: its build loads at once, before they arrive (the
// page starts this worker before it mounts). Widgets load what their first call needs.
if (article) void router.handlers(smallestVariantFor('attention')).catch(() => {});

expose(router.api, self as unknown as Scope);
