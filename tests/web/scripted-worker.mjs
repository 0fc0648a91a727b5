// Fake workers for the worker protocol tests (worker.test.mjs, worker-streams.test.mjs,
// translate.test.mjs): one whose answers the test writes by hand, one that serves an API in this
// process, and the small attention inputs the tests send.

/** A worker whose answers the test writes by hand. */
export class ScriptedWorker {
  posted = [];
  listeners = { message: [], error: [], messageerror: [] };
  terminated = false;
  postMessage(message) {
    this.posted.push(structuredClone(message)); // a real worker clones too (and throws DataCloneError)
  }
  addEventListener(type, fn) {
    this.listeners[type].push(fn);
  }
  terminate() {
    this.terminated = true;
  }
  emit(type, event) {
    for (const fn of this.listeners[type]) fn(event);
  }
  answer(id, result) {
    this.emit('message', { data: { id, ok: true, result } });
  }
  refuse(id, error) {
    this.emit('message', { data: { id, ok: false, error } });
  }
  crash(message) {
    const event = { message, defaultPrevented: false, preventDefault() { this.defaultPrevented = true; } };
    this.emit('error', event);
    return event;
  }
}

/**
 * The real thing minus the thread: `serve(scope)` (an expose() of worker/expose.ts) answers the
 * page's messages inside this process, with structured cloning both ways.
 */
export class InProcessWorker extends ScriptedWorker {
  /** messages the worker posted, progress reports included */
  answers = [];
  #inside = [];
  constructor(serve) {
    super();
    serve({
      addEventListener: (type, fn) => this.#inside.push(fn),
      postMessage: (message, transfer) => {
        if (this.terminated) return;
        this.answers.push(message);
        this.emit('message', { data: structuredClone(message, { transfer }) });
      },
    });
  }
  postMessage(message) {
    const data = structuredClone(message);
    setTimeout(() => {
      if (!this.terminated) for (const fn of this.#inside) fn({ data });
    }, 0);
  }
}

export const Q = { shape: [1, 2, 3], data: [1, 0, 2, -1, 0.5, 0] };
export const K = { shape: [1, 3, 3], data: [0.2, 1, -1, 2, 0, 0.5, -0.3, 0.1, 1] };
