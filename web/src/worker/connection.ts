// The page's end of a worker's API (the worker's end: expose.ts), knowing no operation by name.
// A Connection posts each call as {id, method, args} and settles it when the worker answers that
// id; the worker starts on the first call. If it dies (an uncaught error, an unreadable message)
// every pending call rejects with a WorkerCrashedError, the crash listeners fire, and further calls
// reject until restart(). wrap() makes it an object whose methods are the API's, comlink's way.
import type { CallMessage, ErrorPayload, RemoteApi, ResponseMessage, TrainResult } from './protocol';

/** What the connection needs of a Worker (tests pass a fake). */
export interface WorkerLike {
  postMessage(message: unknown, transfer?: Transferable[]): void;
  addEventListener(type: string, listener: (event: Event) => void): void;
  terminate(): void;
}

/** The worker stopped (or was restarted) before answering. */
export class WorkerCrashedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WorkerCrashedError';
  }
}

/**
 * A call the worker answered with an error; `completed` is set when training diverged, `code` and
 * `details` when the core's error has a code (errorMessage() words it in the reader's language).
 */
export class LabRequestError extends Error {
  completed?: TrainResult;
  code?: string;
  details?: Record<string, number>;
  constructor(payload: ErrorPayload) {
    super(payload.message);
    this.name = payload.name && payload.name !== 'Error' ? payload.name : 'LabRequestError';
    if (payload.completed) this.completed = payload.completed;
    if (payload.code) {
      this.code = payload.code;
      this.details = payload.details;
    }
  }
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
  /** the call's callback, for the worker's progress reports */
  progress?(...values: unknown[]): void;
}

/** A call on its way: its id (0 when it was refused before it was sent) and its answer. */
export interface Sent {
  id: number;
  promise: Promise<unknown>;
}

export class Connection {
  readonly #spawn: () => WorkerLike;
  #worker: WorkerLike | null = null;
  /** set when the current worker died; cleared by restart() */
  #crashed: WorkerCrashedError | null = null;
  #nextId = 1;
  #generation = 0;
  readonly #pending = new Map<number, Pending>();
  readonly #crashListeners = new Set<(error: Error) => void>();
  readonly #restartListeners = new Set<() => void>();

  constructor(spawn: () => WorkerLike) {
    this.#spawn = spawn;
  }

  /** increases on every restart */
  get generation(): number {
    return this.#generation;
  }

  /** true after a crash, until restart() */
  get crashed(): boolean {
    return this.#crashed !== null;
  }

  /** calls sent and not answered yet */
  get pendingCount(): number {
    return this.#pending.size;
  }

  /** Whether call `id` still waits for its answer. */
  isPending(id: number): boolean {
    return this.#pending.has(id);
  }

  onCrash(listener: (error: Error) => void): () => void {
    this.#crashListeners.add(listener);
    return () => this.#crashListeners.delete(listener);
  }

  onRestart(listener: () => void): () => void {
    this.#restartListeners.add(listener);
    return () => this.#restartListeners.delete(listener);
  }

  /** Drops the current worker (and its models) and arms a fresh one for the next call. */
  restart(): void {
    const old = this.#worker;
    this.#worker = null;
    old?.terminate();
    this.#rejectAll(new WorkerCrashedError('the worker was restarted before it answered'));
    this.#crashed = null;
    this.#generation++;
    for (const fn of [...this.#restartListeners]) fn();
  }

  /**
   * Starts the worker now rather than on the first call: the article calls it before its
   * sections load their strings and mount, so the worker's script and first wasm build download
   * and compile meanwhile (lab-worker.ts loads the article's first build on start).
   */
  start(): void {
    if (this.#crashed) return;
    try {
      this.#ensureWorker();
    } catch (err) {
      this.#crash(`the worker could not start: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  /**
   * Calls `method` in the worker. Arguments are copied (structured clone), never transferred:
   * callers keep them. A function among them is the call's progress callback (one at most).
   */
  call(method: string, args: readonly unknown[]): Sent {
    if (this.#crashed) return { id: 0, promise: Promise.reject(new WorkerCrashedError(this.#crashed.message)) };
    let worker: WorkerLike;
    try {
      worker = this.#ensureWorker();
    } catch (err) {
      this.#crash(`the worker could not start: ${err instanceof Error ? err.message : String(err)}`);
      return { id: 0, promise: Promise.reject(new WorkerCrashedError(this.#crashed!.message)) };
    }
    const id = this.#nextId++;
    const message: CallMessage = { id, method, args: [...args] };
    const at = args.findIndex((arg) => typeof arg === 'function');
    if (at >= 0) {
      message.args[at] = null;
      message.progress = at;
    }
    const promise = new Promise<unknown>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject, progress: at >= 0 ? (args[at] as Pending['progress']) : undefined });
      try {
        worker.postMessage(message);
      } catch (err) {
        // e.g. a DataCloneError: this call is bad, the worker is fine
        this.#pending.delete(id);
        reject(err instanceof Error ? err : new Error(String(err)));
      }
    });
    return { id, promise };
  }

  #ensureWorker(): WorkerLike {
    if (this.#worker) return this.#worker;
    const worker = this.#spawn();
    worker.addEventListener('message', (e) => {
      if (worker === this.#worker) this.#onMessage((e as MessageEvent<ResponseMessage>).data);
    });
    worker.addEventListener('error', (e) => {
      // Handled here: the banner says it; the browser need not report it again.
      e.preventDefault();
      if (worker !== this.#worker) return;
      const message = (e as ErrorEvent).message;
      this.#crash(message ? `the worker stopped: ${message}` : 'the worker stopped');
    });
    worker.addEventListener('messageerror', () => {
      if (worker === this.#worker) this.#crash('the worker sent a message that could not be read');
    });
    this.#worker = worker;
    return worker;
  }

  #onMessage(data: ResponseMessage | undefined): void {
    if (!data || typeof data.id !== 'number') return;
    const pending = this.#pending.get(data.id);
    if (!pending) return;
    if ('progress' in data) {
      pending.progress?.(...data.progress);
      return;
    }
    this.#pending.delete(data.id);
    if (data.ok) pending.resolve(data.result);
    else pending.reject(new LabRequestError(data.error ?? { name: 'Error', message: 'unknown worker error' }));
  }

  #crash(message: string): void {
    if (this.#crashed) return;
    const error = new WorkerCrashedError(message);
    this.#crashed = error;
    const worker = this.#worker;
    this.#worker = null;
    try {
      worker?.terminate();
    } catch {
      // already gone
    }
    this.#rejectAll(error);
    for (const fn of [...this.#crashListeners]) fn(error);
  }

  #rejectAll(error: WorkerCrashedError): void {
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    for (const p of pending) p.reject(new WorkerCrashedError(error.message));
  }
}

/**
 * `local`'s members (methods bound to it), and for every other name a method that runs
 * `call(name, args)`: the one place where a name becomes a call in the worker.
 */
export function remoteObject<R>(local: object, call: (method: string, args: unknown[]) => Promise<unknown>): R {
  const methods = new Map<string, (...args: unknown[]) => Promise<unknown>>();
  return new Proxy(local, {
    get(target, key) {
      if (key in target) {
        const value: unknown = Reflect.get(target, key, target);
        return typeof value === 'function' ? value.bind(target) : value;
      }
      // not a method: a Promise resolved with this object asks it for `then`
      if (typeof key !== 'string' || key === 'then') return undefined;
      let method = methods.get(key);
      if (!method) methods.set(key, (method = (...args) => call(key, args)));
      return method;
    },
  }) as R;
}

/** The connection with every method of the API T: a call posts {id, method, args}. */
export function wrap<T, C extends Connection>(connection: C): RemoteApi<T> & C {
  return remoteObject(connection, (method, args) => connection.call(method, args).promise);
}
