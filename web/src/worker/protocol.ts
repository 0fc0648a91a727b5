// The one API between the page and the worker that owns the wasm module and every model. LabApi
// declares each operation once: the worker implements it (handlers.ts, one object per wasm build),
// router.ts says which build answers each, and the page calls it through a proxy (connection.ts)
// that posts each call as a message, so the page never blocks on wasm. Results are
// structured-cloned copies (typed arrays transferred), never views into wasm memory.
import type {
  AttentionArgs,
  AttentionResult,
  MultiHeadParams,
  MultiHeadResult,
  ProjectionParams,
  SelfAttentionOptions,
  SelfAttentionResult,
  TensorInput,
} from '#types/attention-lab';
import type {
  AttributionOptions,
  EvaluateOptions,
  EvaluateResult,
  HeldOutExample,
  Seq2SeqConfig,
  Seq2SeqInfo,
  TrainResult,
  TransformerSeq2SeqConfig,
  TranslateOptions,
  TranslateResult,
  TranslationAttribution,
  AttentionTimeline,
  TimelineOptions,
} from '#types/seq2seq';
import type { LabVariant } from '../lab';
import type { GptEvalResult, GptHeadScores, GptInfo, GptSampleOptions, GptSampleResult, GptSessionConfig } from '#types/gpt';

export type {
  AttentionArgs,
  AttentionResult,
  EvaluateOptions,
  EvaluateResult,
  MultiHeadParams,
  MultiHeadResult,
  ProjectionParams,
  SelfAttentionOptions,
  SelfAttentionResult,
  Seq2SeqConfig,
  Seq2SeqInfo,
  TensorInput,
  TrainResult,
  TranslateOptions,
  TranslateResult,
  GptEvalResult,
  GptHeadScores,
  GptInfo,
  GptSampleOptions,
  GptSampleResult,
  GptSessionConfig,
};

/**
 * Every operation of the worker, with what it returns there (the page gets each as a Promise).
 * A name with a dot belongs to a kind: `seq2seq.*` and `gpt.*` take the worker-side id of a model
 * first (the page's RemoteSeq2Seq and RemoteGpt put it in), except the create and load that make
 * one. The wasm API's Errors (bad input, a diverged run with its `completed` steps) reach the page.
 */
export interface LabApi {
  attention(args: AttentionArgs): AttentionResult;
  selfAttention(x: TensorInput, params: ProjectionParams, options?: SelfAttentionOptions): SelfAttentionResult;
  multiHeadAttention(x: TensorInput, params: MultiHeadParams, numHeads: number, options?: SelfAttentionOptions): MultiHeadResult;
  /** wasm heap and live-model diagnostics, summed over the loaded builds; `modules`: each build's own figures (the worker fills it) */
  memory(): MemoryFigures & { modules?: Partial<Record<LabVariant, MemoryFigures>> };

  /** a recurrent translator, or with arch: 'transformer' a Transformer (its info and translations carry the Transformer's fields) */
  'seq2seq.create'(config: Seq2SeqConfig | TransformerSeq2SeqConfig): Created<Seq2SeqInfo>;
  'seq2seq.load'(bytes: Uint8Array): Created<Seq2SeqInfo>;
  'seq2seq.info'(model: number): Seq2SeqInfo;
  /** throws like the session's train(): a diverged run with `completed` */
  'seq2seq.train'(model: number, steps: number): TrainResult;
  /**
   * Trains up to `steps` steps continuously inside the worker, in time slices of about
   * `limits.sliceMs`, reporting each slice's steps and training time to `progress` and yielding
   * between slices so other calls and a stop get their turn. `limits.maxStepsPerSecond` throttles
   * it (the section's speed setting); without it the worker trains as fast as it can. Resolves when
   * the steps are done or `stream.stop` ended it; a diverged run rejects with `completed` = the
   * diverging slice's finished steps (earlier slices were already reported).
   */
  'seq2seq.trainStream'(model: number, steps: number, limits: StreamLimits, progress: Progress<[slice: TrainResult, ms: number]>): Promise<TrainStreamEnd>;
  'seq2seq.evaluate'(model: number, options?: EvaluateOptions): EvaluateResult;
  'seq2seq.translate'(model: number, text: string, options?: TranslateOptions): TranslateResult;
  /** each word of the greedy translation attributed to the source words (translate: ask why) */
  'seq2seq.attribution'(model: number, text: string, options?: AttributionOptions): TranslationAttribution;
  /** the probe's attention recorded now and every `every` training steps, in bounded memory (recurrent translators with the full build) */
  'seq2seq.recordTimeline'(model: number, probe: string, options?: TimelineOptions): void;
  'seq2seq.stopTimeline'(model: number): void;
  /** the frames recorded so far */
  'seq2seq.timeline'(model: number): AttentionTimeline;
  /** timeline() as one JSON text (the download) */
  'seq2seq.exportTimeline'(model: number): string;
  /** the model file: .atlb (default) or, with format 'safetensors', PyTorch's state dict */
  'seq2seq.save'(model: number, options?: SaveOptions): Uint8Array;
  /** source and target tokens in id order, without <pad>/<sos>/<eos>/<unk> (translate section: clickable words) */
  'seq2seq.vocabulary'(model: number): { source: string[]; target: string[] };
  /** the first `count` held-out examples, with each target word's aligned source words */
  'seq2seq.heldOut'(model: number, count: number): HeldOutExample[];
  'seq2seq.delete'(model: number): void;

  /**
   * §5's GPT (docs/gpt.md), in the GPT build; its ids share the translators' sequence. A GPT step
   * takes about 30 ms, so the page trains it in calls of a few steps (a round trip costs far less
   * than a step) and pauses between them: no stream is needed.
   */
  'gpt.create'(config: GptSessionConfig): Created<GptInfo>;
  'gpt.info'(model: number): GptInfo;
  /** throws like the session's train(): a diverged run with `completed` */
  'gpt.train'(model: number, steps: number): TrainResult;
  'gpt.evaluate'(model: number): GptEvalResult;
  /** a prompt character outside the vocabulary, a temperature ≤ 0, a top-p outside (0, 1]: an Error naming it */
  'gpt.sample'(model: number, prompt: string, options?: GptSampleOptions): GptSampleResult;
  /** what each head learned (docs/gpt.md); a head outside the model: an Error naming zeroHeads[i] */
  'gpt.heads'(model: number, zeroHeads?: [number, number][]): GptHeadScores;
  'gpt.delete'(model: number): void;

  /** stops the training stream of call `stream` after its current slice; false when none runs (it has ended) */
  'stream.stop'(stream: number): boolean;
  /** makes the worker die (an uncaught error) and never answers: tests check the crash banner and restart with it */
  'debug.crash'(): Promise<never>;
}

/** What a create or load answers: the new model's worker-side id and its info. */
export interface Created<Info> {
  model: number;
  info: Info;
}

/**
 * A callback of the page, as the worker sees it: each report() reaches the page's function, in
 * order, while the call is still pending. `id` is the call's id (`stream.stop` names a stream by it).
 */
export interface Progress<A extends unknown[]> {
  readonly id: number;
  report(...values: A): void;
}

/** Seq2Seq.save's options (wasm/js/seq2seq.mjs). */
export interface SaveOptions {
  format?: 'atlb' | 'safetensors';
  names?: 'project' | 'book';
}

/** One wasm build's heap in use, its memory size, live embind handles and live models. */
export interface MemoryFigures {
  heapUsed: number;
  memorySize: number;
  handles: number;
  models: number;
}

/** A training stream's pace: its slices' length and at most how many steps a second. */
export interface StreamLimits {
  sliceMs?: number;
  maxStepsPerSecond?: number;
}

/** How a training stream ended: the steps it trained and whether a stop ended it early. */
export interface TrainStreamEnd {
  steps: number;
  stopped: boolean;
}

/** page → worker: `progress`, the index in `args` of the page's callback (sent as null) */
export interface CallMessage {
  id: number;
  method: string;
  args: unknown[];
  progress?: number;
}

/**
 * A failed call: the Error's message; for a diverged training run, the steps that completed; for an
 * error the page words in its reader's language, the core's code and the numbers it names.
 */
export interface ErrorPayload {
  name: string;
  message: string;
  completed?: TrainResult;
  code?: string;
  details?: Record<string, number>;
}

/** worker → page */
export type ResponseMessage =
  | { id: number; ok: true; result: unknown }
  /** one report of the call's Progress (the call stays pending) */
  | { id: number; progress: unknown[] }
  | { id: number; ok: false; error: ErrorPayload };

/** A worker-side method as the page calls it: a Progress argument is a plain callback there, and the result comes as a Promise. */
export type Remote<F> = F extends (...args: infer P extends unknown[]) => infer R ? (...args: PageArgs<P>) => Promise<Awaited<R>> : never;
type PageArgs<P extends unknown[]> = { [I in keyof P]: P[I] extends Progress<infer A> ? (...values: A) => void : P[I] };

/** Every method of T as the page calls it. */
export type RemoteApi<T> = { [K in keyof T]: Remote<T[K]> };

/** LabApi's methods of one kind of model (those that take its id first), without the id: its handle puts it in. */
type ModelMethods<Kind extends string> = {
  [K in keyof LabApi as K extends `${Kind}.${infer Name}` ? (Parameters<LabApi[K]>[0] extends number ? Name : never) : never]:
    LabApi[K] extends (model: number, ...args: infer A) => infer R ? Remote<(...args: A) => R> : never;
};

/** A model living in the worker, seen from the page. */
interface ModelHandle {
  /** the worker-side id */
  readonly model: number;
  /** the worker generation it lives in: a restart makes older models invalid, and their calls reject */
  readonly generation: number;
  /** (a model of an older worker is already gone with it) */
  delete(): Promise<void>;
}

/** A Seq2Seq model in the worker: `seq2seq.*` of LabApi, with training as a stream. */
export type RemoteSeq2Seq = Omit<ModelMethods<'seq2seq'>, 'trainStream'> &
  ModelHandle & {
    /** trains continuously in the worker with progress per slice: no round trip per chunk */
    trainStream(steps: number, options: TrainStreamOptions): TrainStream;
  };

/** §5's GPT in the worker: `gpt.*` of LabApi. */
export type RemoteGpt = ModelMethods<'gpt'> & ModelHandle;

/** A training stream's running handle (RemoteSeq2Seq.trainStream). */
export interface TrainStream {
  /** resolves when the stream ends; rejects like train() on divergence or a crash */
  readonly done: Promise<TrainStreamEnd>;
  /** asks the worker to stop after its current slice; `done` then resolves with stopped: true */
  stop(): void;
}

export interface TrainStreamOptions extends StreamLimits {
  /** called once per slice, at most about once a frame, with that slice's steps and its training time in ms */
  onProgress(progress: TrainResult, ms: number): void;
}

/** LabApi's operations that need no model (their names have no dot). */
type Unscoped<T> = { [K in keyof T as K extends `${string}.${string}` ? never : K]: T[K] };

/** The page's handle on the worker (client.ts makes it): LabApi's calls that need no model, the models' handles, the worker's life. */
export type LabClient = RemoteApi<Unscoped<LabApi>> & {
  createSeq2Seq(...args: Parameters<LabApi['seq2seq.create']>): Promise<RemoteSeq2Seq>;
  loadSeq2Seq(...args: Parameters<LabApi['seq2seq.load']>): Promise<RemoteSeq2Seq>;
  createGpt(...args: Parameters<LabApi['gpt.create']>): Promise<RemoteGpt>;
  /** increases on every restart */
  readonly generation: number;
  /** called when the worker dies (pending calls reject with WorkerCrashedError) */
  onCrash(listener: (error: Error) => void): () => void;
  /** called after restart() brought up a fresh worker */
  onRestart(listener: () => void): () => void;
  /** a fresh worker (after a crash); models of the old one are gone */
  restart(): void;
};

/** The worker's name tells it its variant (a module worker has no other start-up argument). */
export const FULL_WORKER_NAME = 'attention-lab:full';
