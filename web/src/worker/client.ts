// The page's handle on the one lab worker (LabClient of protocol.ts). Requests carry ids; each
// resolves or rejects when the worker answers that id. The worker starts on the first request.
// If it dies (an uncaught error, an unreadable message) every pending request rejects with a
// WorkerCrashedError, the crash listeners fire, and further requests reject until restart().
import type {
  ErrorPayload,
  LabClient,
  Op,
  RemoteGpt,
  RemoteSeq2Seq,
  Request,
  RequestMessage,
  ResponseMessage,
  ResultOf,
  TrainResult,
  TrainStream,
  TrainStreamOptions,
} from './protocol';
import { FULL_WORKER_NAME } from './protocol';

/** What the client needs of a Worker (tests pass a fake). */
export interface WorkerLike {
  postMessage(message: unknown, transfer?: Transferable[]): void;
  addEventListener(type: string, listener: (event: Event) => void): void;
  terminate(): void;
}

/**
 * The page's client over the real module worker, started on the first request. Vite needs this
 * exact `new Worker(new URL(…, import.meta.url))` form to bundle the worker; unit tests construct
 * WorkerLabClient with a fake worker instead.
 */
export function createLabClient(options: { variant?: WorkerVariant } = {}): WorkerLabClient {
  const name = options.variant === 'full' ? FULL_WORKER_NAME : 'attention-lab';
  return new WorkerLabClient(() => new Worker(new URL('./lab-worker.ts', import.meta.url), { type: 'module', name }));
}

/**
 * Which wasm builds the worker loads (worker/router.ts). 'auto' (widgets): the smallest build that
 * offers each request, on first need: the attention build for attention, the Seq2Seq build for
 * models. 'full' (the article): the same for attention, so the first heatmap comes from the
 * smallest download, then the full build in the background, which holds the article's models
 * (it can also save and load them).
 */
export type WorkerVariant = 'auto' | 'full';


/** The worker stopped (or was restarted) before answering. */
export class WorkerCrashedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WorkerCrashedError';
  }
}

/** A request the worker answered with an error; `completed` is set when training diverged. */
export class LabRequestError extends Error {
  completed?: TrainResult;
  constructor(payload: ErrorPayload) {
    super(payload.message);
    this.name = payload.name && payload.name !== 'Error' ? payload.name : 'LabRequestError';
    if (payload.completed) this.completed = payload.completed;
  }
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
  /** a training stream's per-slice progress */
  progress?(progress: TrainResult, ms: number): void;
}

export class WorkerLabClient implements LabClient {
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

  get generation(): number {
    return this.#generation;
  }

  /** true after a crash, until restart() */
  get crashed(): boolean {
    return this.#crashed !== null;
  }

  /** requests sent and not answered yet */
  get pendingCount(): number {
    return this.#pending.size;
  }

  attention(args: Parameters<LabClient['attention']>[0]) {
    return this.request({ op: 'attention', args });
  }

  selfAttention(...[x, params, options]: Parameters<LabClient['selfAttention']>) {
    return this.request({ op: 'selfAttention', x, params, options });
  }

  multiHeadAttention(...[x, params, numHeads, options]: Parameters<LabClient['multiHeadAttention']>) {
    return this.request({ op: 'multiHeadAttention', x, params, numHeads, options });
  }

  async createSeq2Seq(config: Parameters<LabClient['createSeq2Seq']>[0]): Promise<RemoteSeq2Seq> {
    const generation = this.#generation;
    const { model } = await this.request({ op: 'seq2seq.create', config });
    return new RemoteModel(this, model, generation);
  }

  async loadSeq2Seq(bytes: Uint8Array): Promise<RemoteSeq2Seq> {
    const generation = this.#generation;
    const { model } = await this.request({ op: 'seq2seq.load', bytes });
    return new RemoteModel(this, model, generation);
  }

  async createGpt(config: Parameters<LabClient['createGpt']>[0]): Promise<RemoteGpt> {
    const generation = this.#generation;
    const { model } = await this.request({ op: 'gpt.create', config });
    return new RemoteGptModel(this, model, generation);
  }

  memory() {
    return this.request({ op: 'memory' });
  }

  /** Asks the worker to die (tests of the crash banner); resolves never, the crash is the answer. */
  debugCrash(): void {
    this.request({ op: 'debug.crash' }).catch(() => {});
  }

  onCrash(listener: (error: Error) => void): () => void {
    this.#crashListeners.add(listener);
    return () => this.#crashListeners.delete(listener);
  }

  onRestart(listener: () => void): () => void {
    this.#restartListeners.add(listener);
    return () => this.#restartListeners.delete(listener);
  }

  /** Drops the current worker (and its models) and arms a fresh one for the next request. */
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
   * Starts the worker now rather than on the first request: the article calls it before its
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

  /** Sends one request. Inputs are copied (structured clone), never transferred: callers keep them. */
  request<O extends Op>(request: Extract<Request, { op: O }>): Promise<ResultOf[O]> {
    return this.#send(request).promise;
  }

  /**
   * Starts a training stream (seq2seq.trainStream): `onProgress` gets each slice the worker posts;
   * stop() asks the worker to end it after the current slice.
   */
  trainStream(model: number, steps: number, options: TrainStreamOptions): TrainStream {
    const { onProgress, maxStepsPerSecond, sliceMs } = options;
    const request: Extract<Request, { op: 'seq2seq.trainStream' }> = { op: 'seq2seq.trainStream', model, steps };
    if (maxStepsPerSecond !== undefined) request.maxStepsPerSecond = maxStepsPerSecond;
    if (sliceMs !== undefined) request.sliceMs = sliceMs;
    const { id, promise } = this.#send(request, onProgress);
    let stopping = false;
    return {
      done: promise,
      stop: () => {
        if (stopping || id === 0 || !this.#pending.has(id)) return;
        stopping = true;
        this.request({ op: 'seq2seq.stopStream', stream: id }).catch(() => {});
      },
    };
  }

  #send<O extends Op>(
    request: Extract<Request, { op: O }>,
    progress?: (p: TrainResult, ms: number) => void,
  ): { id: number; promise: Promise<ResultOf[O]> } {
    if (this.#crashed) return { id: 0, promise: Promise.reject(new WorkerCrashedError(this.#crashed.message)) };
    let worker: WorkerLike;
    try {
      worker = this.#ensureWorker();
    } catch (err) {
      this.#crash(`the worker could not start: ${err instanceof Error ? err.message : String(err)}`);
      return { id: 0, promise: Promise.reject(new WorkerCrashedError(this.#crashed!.message)) };
    }
    const id = this.#nextId++;
    const promise = new Promise<ResultOf[O]>((resolve, reject) => {
      this.#pending.set(id, { resolve: resolve as (v: unknown) => void, reject, progress });
      try {
        worker.postMessage({ id, request } satisfies RequestMessage);
      } catch (err) {
        // e.g. a DataCloneError: this request is bad, the worker is fine
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
      pending.progress?.(data.progress, data.ms);
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
 * What a model in the worker is to the page: its worker-side id and the worker generation it lives
 * in; calls on a model from before a restart reject with a clear Error.
 */
abstract class RemoteHandle {
  protected readonly client: WorkerLabClient;
  readonly model: number;
  readonly generation: number;

  constructor(client: WorkerLabClient, model: number, generation: number) {
    this.client = client;
    this.model = model;
    this.generation = generation;
  }

  protected get lost(): boolean {
    return this.generation !== this.client.generation;
  }

  protected send<O extends Op>(request: Extract<Request, { op: O }>): Promise<ResultOf[O]> {
    if (this.lost) return Promise.reject(new WorkerCrashedError('this model was lost when the worker restarted; create it again'));
    return this.client.request(request);
  }

  /** (a model of an older worker is already gone with it) */
  protected async deleteWith(op: 'seq2seq.delete' | 'gpt.delete'): Promise<void> {
    if (this.lost || this.client.crashed) return;
    await this.client.request({ op, model: this.model });
  }
}

/** A Seq2Seq model in the worker. */
class RemoteModel extends RemoteHandle implements RemoteSeq2Seq {
  info() {
    return this.send({ op: 'seq2seq.info', model: this.model });
  }
  train(steps: number) {
    return this.send({ op: 'seq2seq.train', model: this.model, steps });
  }
  trainStream(steps: number, options: TrainStreamOptions): TrainStream {
    if (this.lost) {
      const done = Promise.reject(new WorkerCrashedError('this model was lost when the worker restarted; create it again'));
      return { done, stop() {} };
    }
    return this.client.trainStream(this.model, steps, options);
  }
  evaluate(options?: Parameters<RemoteSeq2Seq['evaluate']>[0]) {
    return this.send({ op: 'seq2seq.evaluate', model: this.model, options });
  }
  translate(text: string, options?: Parameters<RemoteSeq2Seq['translate']>[1]) {
    return this.send({ op: 'seq2seq.translate', model: this.model, text, options });
  }
  attribution(text: string, options?: Parameters<RemoteSeq2Seq['attribution']>[1]) {
    return this.send({ op: 'seq2seq.attribution', model: this.model, text, options });
  }
  async recordTimeline(probe: string, options?: Parameters<RemoteSeq2Seq['recordTimeline']>[1]) {
    await this.send({ op: 'seq2seq.recordTimeline', model: this.model, probe, options });
  }
  async stopTimeline() {
    await this.send({ op: 'seq2seq.stopTimeline', model: this.model });
  }
  timeline() {
    return this.send({ op: 'seq2seq.timeline', model: this.model });
  }
  exportTimeline() {
    return this.send({ op: 'seq2seq.exportTimeline', model: this.model });
  }
  save(options?: Parameters<RemoteSeq2Seq['save']>[0]) {
    return this.send({ op: 'seq2seq.save', model: this.model, options });
  }
  vocabulary() {
    return this.send({ op: 'seq2seq.vocabulary', model: this.model });
  }
  heldOut(count: number) {
    return this.send({ op: 'seq2seq.heldOut', model: this.model, count });
  }
  delete(): Promise<void> {
    return this.deleteWith('seq2seq.delete');
  }
}

/** §5's GPT in the worker. */
class RemoteGptModel extends RemoteHandle implements RemoteGpt {
  info() {
    return this.send({ op: 'gpt.info', model: this.model });
  }
  train(steps: number) {
    return this.send({ op: 'gpt.train', model: this.model, steps });
  }
  evaluate() {
    return this.send({ op: 'gpt.evaluate', model: this.model });
  }
  sample(prompt: string, options?: Parameters<RemoteGpt['sample']>[1]) {
    return this.send({ op: 'gpt.sample', model: this.model, prompt, options });
  }
  heads(zeroHeads?: [number, number][]) {
    return this.send({ op: 'gpt.heads', model: this.model, zeroHeads });
  }
  delete(): Promise<void> {
    return this.deleteWith('gpt.delete');
  }
}
