// Fake workers for the worker protocol tests (worker.test.mjs, worker-streams.test.mjs): one whose
// answers the test writes by hand, and the small attention inputs both files send.

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

export const Q = { shape: [1, 2, 3], data: [1, 0, 2, -1, 0.5, 0] };
export const K = { shape: [1, 3, 3], data: [0.2, 1, -1, 2, 0, 0.5, -0.3, 0.1, 1] };
