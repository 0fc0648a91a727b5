// The page's client of the lab worker: LabApi through wrap() (connection.ts), so each of its
// operations is a method here with no code of its own. On top: the models' handles, whose methods
// are LabApi's `seq2seq.*` and `gpt.*` with the model's id put in, and the training stream with its
// progress and stop.
import { Connection, remoteObject, WorkerCrashedError, wrap, type WorkerLike } from './connection';
import { FULL_WORKER_NAME } from './protocol';
import type { LabApi, LabClient, Remote, RemoteApi, RemoteGpt, RemoteSeq2Seq, TrainStream, TrainStreamOptions } from './protocol';

export { LabRequestError, WorkerCrashedError, type WorkerLike } from './connection';

/**
 * Which wasm builds the worker loads (worker/router.ts). 'auto' (widgets): the smallest build that
 * offers each call, on first need: the attention build for attention, the Seq2Seq build for
 * models. 'full' (the article): the same for attention, so the first heatmap comes from the
 * smallest download, then the full build in the background, which holds the article's models
 * (it can also save and load them).
 */
export type WorkerVariant = 'auto' | 'full';

/** The client with its connection's state (the shell shows a crash that came before it mounted). */
export type WorkerLabClient = LabClient & LabConnection;

/** The client of the worker that `spawn` starts on the first call (the widgets start theirs their own way; tests pass fakes). */
export function createLabClient(spawn: () => WorkerLike): WorkerLabClient {
  return wrap<LabApi, LabConnection>(new LabConnection(spawn));
}

/** Starts the real module worker. Vite needs this exact `new Worker(new URL(…, import.meta.url))` form to bundle it. */
export function labWorker(variant: WorkerVariant): () => Worker {
  const name = variant === 'full' ? FULL_WORKER_NAME : 'attention-lab';
  return () => new Worker(new URL('./lab-worker.ts', import.meta.url), { type: 'module', name });
}

/** The connection to the lab worker, with the calls that make a model answering its handle. */
class LabConnection extends Connection {
  readonly #api = remoteObject<RemoteApi<LabApi>>({}, (method, args) => this.call(method, args).promise);

  async createSeq2Seq(...args: Parameters<LabApi['seq2seq.create']>): Promise<RemoteSeq2Seq> {
    const generation = this.generation;
    return seq2seqHandle(this, (await this.#api['seq2seq.create'](...args)).model, generation);
  }

  async loadSeq2Seq(...args: Parameters<LabApi['seq2seq.load']>): Promise<RemoteSeq2Seq> {
    const generation = this.generation;
    return seq2seqHandle(this, (await this.#api['seq2seq.load'](...args)).model, generation);
  }

  async createGpt(...args: Parameters<LabApi['gpt.create']>): Promise<RemoteGpt> {
    const generation = this.generation;
    return modelHandle<RemoteGpt>(this, 'gpt', (await this.#api['gpt.create'](...args)).model, generation, {});
  }
}

const lostError = () => new WorkerCrashedError('this model was lost when the worker restarted; create it again');

/**
 * Model `model` of kind `kind`, made in worker generation `generation`: `extra`, and every other
 * method calls `${kind}.${method}` with the id first. Once the worker restarted, calls reject.
 */
function modelHandle<H>(connection: Connection, kind: 'seq2seq' | 'gpt', model: number, generation: number, extra: object): H {
  const lost = () => generation !== connection.generation;
  const local = {
    model,
    generation,
    async delete(): Promise<void> {
      if (lost() || connection.crashed) return; // a model of an older worker is already gone with it
      await connection.call(`${kind}.delete`, [model]).promise;
    },
    ...extra,
  };
  return remoteObject<H>(local, (method, args) =>
    lost() ? Promise.reject(lostError()) : connection.call(`${kind}.${method}`, [model, ...args]).promise,
  );
}

/** A Seq2Seq model's handle: its training stream is the one call that reports progress and stops. */
function seq2seqHandle(connection: Connection, model: number, generation: number): RemoteSeq2Seq {
  const trainStream = (steps: number, { onProgress, ...limits }: TrainStreamOptions): TrainStream => {
    if (generation !== connection.generation) return { done: Promise.reject(lostError()), stop() {} };
    const args: Parameters<Remote<LabApi['seq2seq.trainStream']>> = [model, steps, limits, onProgress];
    const { id, promise } = connection.call('seq2seq.trainStream', args);
    let stopping = false;
    return {
      done: promise as ReturnType<Remote<LabApi['seq2seq.trainStream']>>,
      stop: () => {
        if (stopping || id === 0 || !connection.isPending(id)) return;
        stopping = true;
        connection.call('stream.stop', [id]).promise.catch(() => {});
      },
    };
  };
  return modelHandle<RemoteSeq2Seq>(connection, 'seq2seq', model, generation, { trainStream });
}
