// The messages between the page and the one worker that owns the wasm module and every model.
// The page never blocks on wasm: it posts a request and awaits the matching response. Results are
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
} from '#shared/types/attention-lab';
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
} from '#shared/types/seq2seq';
import type { LabVariant } from '../lab';
import type { GptEvalResult, GptHeadScores, GptInfo, GptSampleOptions, GptSampleResult, GptSessionConfig, GptTrainResult } from '#shared/types/gpt';

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
  GptTrainResult,
};

/** Each request names an operation; `model` is the worker-side id of a Seq2Seq model. */
export type Request =
  | { op: 'attention'; args: AttentionArgs }
  | { op: 'selfAttention'; x: TensorInput; params: ProjectionParams; options?: SelfAttentionOptions }
  | {
      op: 'multiHeadAttention';
      x: TensorInput;
      params: MultiHeadParams;
      numHeads: number;
      options?: SelfAttentionOptions;
    }
  | { op: 'seq2seq.create'; config: Seq2SeqConfig | TransformerSeq2SeqConfig }
  | { op: 'seq2seq.load'; bytes: Uint8Array }
  | { op: 'seq2seq.info'; model: number }
  | { op: 'seq2seq.train'; model: number; steps: number }
  /**
   * Trains up to `steps` steps continuously inside the worker, in time slices of about `sliceMs`,
   * posting one progress message per slice (a StreamProgress with this request's id) and yielding
   * between slices so other requests and a stop get their turn. `maxStepsPerSecond` throttles it
   * (the section's speed setting); without it the worker trains as fast as it can. Resolves when
   * the steps are done or the stream is stopped; a diverged run rejects with `completed` = the
   * diverging slice's finished steps (earlier slices were already posted).
   */
  | { op: 'seq2seq.trainStream'; model: number; steps: number; sliceMs?: number; maxStepsPerSecond?: number }
  /** stops the training stream started by request `stream` after its current slice */
  | { op: 'seq2seq.stopStream'; stream: number }
  | { op: 'seq2seq.evaluate'; model: number; options?: EvaluateOptions }
  | { op: 'seq2seq.translate'; model: number; text: string; options?: TranslateOptions }
  /** each word of the greedy translation attributed to the source words (translate: ask why) */
  | { op: 'seq2seq.attribution'; model: number; text: string; options?: AttributionOptions }
  /** the probe's attention recorded every k training steps from now on, in bounded memory (ask why: the timeline) */
  | { op: 'seq2seq.recordTimeline'; model: number; probe: string; options?: TimelineOptions }
  | { op: 'seq2seq.stopTimeline'; model: number }
  /** the frames recorded so far */
  | { op: 'seq2seq.timeline'; model: number }
  /** timeline() as one JSON text (the download) */
  | { op: 'seq2seq.exportTimeline'; model: number }
  /** the model file: .atlb (default) or, with format 'safetensors', PyTorch's state dict */
  | { op: 'seq2seq.save'; model: number; options?: SaveOptions }
  /** the tokens the model knows (translate section: clickable words), reserved tokens left out */
  | { op: 'seq2seq.vocabulary'; model: number }
  /** the first `count` held-out examples with their alignments (translate section: long sentences) */
  | { op: 'seq2seq.heldOut'; model: number; count: number }
  | { op: 'seq2seq.delete'; model: number }
  /**
   * §5's GPT (docs/gpt.md), in the GPT build. `model` ids share the translators' sequence. A GPT
   * step takes about 50 ms, so the page trains it in requests of a few steps (a round trip costs
   * far less than a step) and pauses between them: no stream is needed.
   */
  | { op: 'gpt.create'; config: GptSessionConfig }
  | { op: 'gpt.info'; model: number }
  | { op: 'gpt.train'; model: number; steps: number }
  | { op: 'gpt.evaluate'; model: number }
  | { op: 'gpt.sample'; model: number; prompt: string; options?: GptSampleOptions }
  | { op: 'gpt.heads'; model: number; zeroHeads?: [number, number][] }
  | { op: 'gpt.delete'; model: number }
  /** wasm heap and live-model diagnostics */
  | { op: 'memory' }
  /** makes the worker die (an uncaught error): tests use it to check the crash banner and restart */
  | { op: 'debug.crash' };

/** Seq2Seq.save's options (wasm/js/seq2seq.mjs). */
export interface SaveOptions {
  format?: 'atlb' | 'safetensors';
  names?: 'project' | 'book';
}

/** What each operation resolves to. */
export interface ResultOf {
  attention: AttentionResult;
  selfAttention: SelfAttentionResult;
  multiHeadAttention: MultiHeadResult;
  'seq2seq.create': { model: number; info: Seq2SeqInfo };
  'seq2seq.load': { model: number; info: Seq2SeqInfo };
  'seq2seq.info': Seq2SeqInfo;
  'seq2seq.train': TrainResult;
  'seq2seq.trainStream': TrainStreamEnd;
  /** false when no such stream was running (already finished) */
  'seq2seq.stopStream': boolean;
  'seq2seq.evaluate': EvaluateResult;
  'seq2seq.translate': TranslateResult;
  'seq2seq.attribution': TranslationAttribution;
  'seq2seq.recordTimeline': null;
  'seq2seq.stopTimeline': null;
  'seq2seq.timeline': AttentionTimeline;
  'seq2seq.exportTimeline': string;
  'seq2seq.save': Uint8Array;
  'seq2seq.vocabulary': { source: string[]; target: string[] };
  'seq2seq.heldOut': HeldOutExample[];
  'seq2seq.delete': null;
  'gpt.create': { model: number; info: GptInfo };
  'gpt.info': GptInfo;
  'gpt.train': GptTrainResult;
  'gpt.evaluate': GptEvalResult;
  'gpt.sample': GptSampleResult;
  'gpt.heads': GptHeadScores;
  'gpt.delete': null;
  /** summed over the loaded builds; `modules`: each build's own figures (the worker fills it) */
  memory: MemoryFigures & { modules?: Partial<Record<LabVariant, MemoryFigures>> };
  'debug.crash': never;
}

export type Op = Request['op'];

/** page → worker */
export interface RequestMessage {
  id: number;
  request: Request;
}

/** One wasm build's heap in use, its memory size, live embind handles and live models. */
export interface MemoryFigures {
  heapUsed: number;
  memorySize: number;
  handles: number;
  models: number;
}

/** How a training stream ended: the steps it trained and whether a stop ended it early. */
export interface TrainStreamEnd {
  steps: number;
  stopped: boolean;
}

/** A training stream's running handle (RemoteSeq2Seq.trainStream). */
export interface TrainStream {
  /** resolves when the stream ends; rejects like train() on divergence or a crash */
  readonly done: Promise<TrainStreamEnd>;
  /** asks the worker to stop after its current slice; `done` then resolves with stopped: true */
  stop(): void;
}

export interface TrainStreamOptions {
  /** called once per slice, at most about once a frame, with that slice's steps and its training time in ms */
  onProgress(progress: TrainResult, ms: number): void;
  maxStepsPerSecond?: number;
  sliceMs?: number;
}

/** A failed request: the Error's message and, for a diverged training run, the steps that completed. */
export interface ErrorPayload {
  name: string;
  message: string;
  completed?: TrainResult;
}

/** worker → page */
export type ResponseMessage =
  | { id: number; ok: true; result: unknown }
  /** one slice of a training stream (the request stays pending); ms: the worker's time training it */
  | { id: number; progress: TrainResult; ms: number }
  | { id: number; ok: false; error: ErrorPayload };

/** A Seq2Seq model living in the worker, seen from the page. */
export interface RemoteSeq2Seq {
  /** the worker-side id */
  readonly model: number;
  /** the worker generation it lives in (a restart makes older models invalid) */
  readonly generation: number;
  info(): Promise<Seq2SeqInfo>;
  /** rejects with a TrainDivergedError-like Error ({completed}) when training diverges */
  train(steps: number): Promise<TrainResult>;
  /** trains continuously in the worker with progress per slice: no round trip per chunk */
  trainStream(steps: number, options: TrainStreamOptions): TrainStream;
  evaluate(options?: EvaluateOptions): Promise<EvaluateResult>;
  translate(text: string, options?: TranslateOptions): Promise<TranslateResult>;
  attribution(text: string, options?: AttributionOptions): Promise<TranslationAttribution>;
  /** records `probe`'s attention now and every `every` training steps (recurrent translators with the full build) */
  recordTimeline(probe: string, options?: TimelineOptions): Promise<void>;
  stopTimeline(): Promise<void>;
  timeline(): Promise<AttentionTimeline>;
  exportTimeline(): Promise<string>;
  /** .atlb bytes, or with { format: 'safetensors' } the PyTorch state dict */
  save(options?: SaveOptions): Promise<Uint8Array>;
  /** source and target tokens in id order, without <pad>/<sos>/<eos>/<unk> */
  vocabulary(): Promise<ResultOf['seq2seq.vocabulary']>;
  /** the first `count` held-out examples, with each target word's aligned source words */
  heldOut(count: number): Promise<HeldOutExample[]>;
  delete(): Promise<void>;
}

/** §5's GPT living in the worker, seen from the page (a restart makes it invalid, as a Seq2Seq). */
export interface RemoteGpt {
  readonly model: number;
  readonly generation: number;
  info(): Promise<GptInfo>;
  /** rejects like the session's train() (a diverged run: `completed`) */
  train(steps: number): Promise<GptTrainResult>;
  evaluate(): Promise<GptEvalResult>;
  /** a prompt character outside the vocabulary, a temperature ≤ 0, a top-p outside (0, 1]: an Error naming it */
  sample(prompt: string, options?: GptSampleOptions): Promise<GptSampleResult>;
  /** what each head learned (docs/gpt.md); a head outside the model: an Error naming zeroHeads[i] */
  heads(zeroHeads?: [number, number][]): Promise<GptHeadScores>;
  delete(): Promise<void>;
}

/** The page's handle on the worker (web/src/worker/client.ts implements it). */
export interface LabClient {
  attention(args: AttentionArgs): Promise<AttentionResult>;
  selfAttention(x: TensorInput, params: ProjectionParams, options?: SelfAttentionOptions): Promise<SelfAttentionResult>;
  multiHeadAttention(
    x: TensorInput,
    params: MultiHeadParams,
    numHeads: number,
    options?: SelfAttentionOptions,
  ): Promise<MultiHeadResult>;
  /** a recurrent translator, or with arch: 'transformer' a Transformer (its info and translations carry the Transformer's fields) */
  createSeq2Seq(config: Seq2SeqConfig | TransformerSeq2SeqConfig): Promise<RemoteSeq2Seq>;
  loadSeq2Seq(bytes: Uint8Array): Promise<RemoteSeq2Seq>;
  /** a GPT session on `config.text` (§5: the Tang poems), in the GPT build */
  createGpt(config: GptSessionConfig): Promise<RemoteGpt>;
  memory(): Promise<ResultOf['memory']>;
  /** increases on every restart */
  readonly generation: number;
  /** called when the worker dies (pending requests reject with WorkerCrashedError) */
  onCrash(listener: (error: Error) => void): () => void;
  /** called after restart() brought up a fresh worker */
  onRestart(listener: () => void): () => void;
  /** a fresh worker (after a crash); models of the old one are gone */
  restart(): void;
}

/** The worker's name tells it its variant (a module worker has no other start-up argument). */
export const FULL_WORKER_NAME = 'attention-lab:full';
