// Types of the `attention-lab` package that tsc cannot take from the JavaScript: the shapes of what
// goes into and comes out of the C++ bindings (wasm/bindings/*.cpp; emcc emits no declarations),
// and the API object of each module variant, which attention-lab.mjs assembles by name from the
// module table (modules.mjs). Field names match the bindings exactly; tests/wasm/types.test.mjs
// checks every field listed here is present in the results. The functions and classes come from
// the JSDoc of wasm/js/*.mjs (`npm run build:types` generates their declarations into build/types).
import type { ImportedSeq2Seq, Seq2Seq, Seq2SeqConfig, TransformerSeq2Seq, TransformerSeq2SeqConfig } from './seq2seq.js';
export * from './seq2seq.js';
import type { Seq2SeqModel, Seq2SeqModelConfig, TransformerModelConfig, TransformerSeq2SeqModel } from './seq2seq-model.js';
export * from './seq2seq-model.js';
import type { GptSession, GptSessionConfig } from './gpt.js';
export * from './gpt.js';

/** Row-major float32 tensor, batch first. Results always hold copies, never views of wasm memory. */
export interface Tensor {
  shape: number[];
  data: Float32Array;
}

/** What the bindings accept: data may also be a plain array of numbers. */
export interface TensorInput {
  shape: readonly number[];
  data: Float32Array | readonly number[];
}

/** Integer tensors (token ids, targets). */
export interface IdsInput {
  shape: readonly number[];
  data: Int32Array | Float32Array | readonly number[];
}

/** The survey's alignment functions; 'scaled' is the default. */
export type ScoreName = 'dot' | 'scaled' | 'general' | 'additive' | 'cosine';

export interface AttentionMask {
  /** (B, M): 1 marks a padding key that no query attends to (PyTorch's key_padding_mask). */
  keyPadding?: TensorInput;
  /** Query n attends only to keys m <= n. */
  causal?: boolean;
}

/** The score function's own weights. general: w (D, Dk). additive: w1 (A, D), w2 (A, Dk), b (A), v (A). */
export interface ScoreParams {
  w?: TensorInput;
  w1?: TensorInput;
  w2?: TensorInput;
  b?: TensorInput;
  v?: TensorInput;
}

export interface AttentionArgs {
  /** (B, N, D) */
  query: TensorInput;
  /** (B, M, Dk); Dk = D except for the general and additive scores */
  key: TensorInput;
  /** (B, M, Dv) */
  value: TensorInput;
  score?: ScoreName;
  /** cosine only: scaled = cos / temperature (default 1) */
  temperature?: number;
  mask?: AttentionMask;
  params?: ScoreParams;
  /** dL/d(output) (B, N, Dv): when given, the result carries `grads`. */
  gradOutput?: TensorInput;
  /**
   * The forward results to compute and copy out (default: all of them). Asking for fewer skips
   * work: without 'scores' / 'scaled' those (B, N, M) matrices are never built. `grads` comes
   * with gradOutput either way. An unknown name throws an Error naming it.
   */
  outputs?: readonly AttentionOutputName[];
}

/** The forward results of attention(), for AttentionArgs.outputs. */
export type AttentionOutputName = 'score' | 'scores' | 'scaled' | 'weights' | 'output';

export interface AttentionResult {
  score: ScoreName;
  /** (B, N, M) raw alignment a(q, k), unmasked */
  scores: Tensor;
  /** (B, N, M) what enters the softmax: scores / √D (scaled), / temperature (cosine), else scores */
  scaled: Tensor;
  /** (B, N, M) softmax over keys; exactly 0 where masked */
  weights: Tensor;
  /** (B, N, Dv) weights · value */
  output: Tensor;
  grads?: {
    query: Tensor;
    key: Tensor;
    value: Tensor;
    params: { w?: Tensor; w1?: Tensor; w2?: Tensor; b?: Tensor; v?: Tensor };
  };
}

/** nn.Linear layout: weight (out, in), bias (out); y = x Wᵀ + b. All (D, D) and (D). */
export interface ProjectionParams {
  wq: TensorInput;
  bq: TensorInput;
  wk: TensorInput;
  bk: TensorInput;
  wv: TensorInput;
  bv: TensorInput;
}

export interface MultiHeadParams extends ProjectionParams {
  wo: TensorInput;
  bo: TensorInput;
}

export interface SelfAttentionOptions {
  mask?: AttentionMask;
  /** dL/d(output) (B, N, D): when given, the result carries `grads`. */
  gradOutput?: TensorInput;
}

export interface ProjectionGrads<P> {
  x: Tensor;
  params: { [K in keyof P]: Tensor };
}

export interface SelfAttentionResult {
  /** (B, N, D) projected queries, keys, values */
  q: Tensor;
  k: Tensor;
  v: Tensor;
  /** (B, N, N) */
  scores: Tensor;
  scaled: Tensor;
  weights: Tensor;
  /** (B, N, D) */
  output: Tensor;
  grads?: ProjectionGrads<ProjectionParams>;
}

export interface MultiHeadResult {
  numHeads: number;
  /** (B, H, N, Dh): PyTorch's view(B, N, H, Dh).transpose(1, 2) */
  q: Tensor;
  k: Tensor;
  v: Tensor;
  /** (B, H, N, N) per head */
  scores: Tensor;
  scaled: Tensor;
  weights: Tensor;
  /** (B, H, N, Dh) per-head weights · v */
  headOutputs: Tensor;
  /** (B, N, D) heads combined */
  context: Tensor;
  /** (B, N, D) context Woᵀ + bo */
  output: Tensor;
  grads?: ProjectionGrads<MultiHeadParams>;
}

export interface GradOption {
  gradOutput?: TensorInput;
}

export interface Ops {
  /** y = x Wᵀ + b; x (R, I), weight (O, I), bias (O) or null */
  linear(
    x: TensorInput,
    weight: TensorInput,
    bias?: TensorInput | null,
    options?: GradOption,
  ): { y: Tensor; grads?: { x: Tensor; weight: Tensor; bias?: Tensor } };
  /** y[t] = table[ids[t]]; ids (T), table (V, C) */
  embedding(ids: IdsInput, table: TensorInput, options?: GradOption): { y: Tensor; grads?: { table: Tensor } };
  tanh(x: TensorInput, options?: GradOption): { y: Tensor; grads?: { x: Tensor } };
  /** over the last axis of (R, C), numerically stable */
  softmax(x: TensorInput, options?: GradOption): { y: Tensor; grads?: { x: Tensor } };
  /** mean over rows whose target is not ignoreIndex (default -100); gradOutput is dL/d(loss) */
  crossEntropy(
    logits: TensorInput,
    targets: IdsInput,
    options?: { ignoreIndex?: number; gradOutput?: number },
  ): { loss: number; probs: Tensor; grads?: { logits: Tensor } };
}

/** The attention build (loadAttentionLab({ variant: 'attention' })); the full module offers it too. */
export interface AttentionOnlyLab {
  /** With `outputs`, the result has exactly those fields (and `grads` when gradOutput is given). */
  attention: <K extends AttentionOutputName = AttentionOutputName>(
    args: AttentionArgs & { outputs?: readonly K[] },
  ) => Pick<AttentionResult, K | 'grads'>;
  selfAttention(x: TensorInput, params: ProjectionParams, options?: SelfAttentionOptions): SelfAttentionResult;
  multiHeadAttention(
    x: TensorInput,
    params: MultiHeadParams,
    numHeads: number,
    options?: SelfAttentionOptions,
  ): MultiHeadResult;
  /** Leak diagnostics: malloc bytes in use, wasm memory size (only grows), live embind handles. */
  memoryStats(): { heapUsed: number; memorySize: number; handles: number };
}

/** The full module (the default variant): the attention API plus the ops and Seq2Seq. */
export interface AttentionLab extends AttentionOnlyLab {
  /** Only in the full module: the attention build leaves the ops out (widget download size). */
  readonly ops: Ops;
  /**
   * §3.3: a new Seq2Seq model, recurrent or, with arch: 'transformer', the Transformer; the
   * caller owns it and must call .delete().
   */
  createSeq2Seq: <C extends Seq2SeqConfig | TransformerSeq2SeqConfig>(
    config: C,
  ) => C extends TransformerSeq2SeqConfig ? TransformerSeq2Seq : Seq2Seq;
  /**
   * A model from Seq2Seq.save() bytes (.atlb), or, from a .safetensors translator (told apart by
   * content; docs/safetensors.md), an ImportedSeq2Seq: the type cannot follow the bytes, so name
   * it (`lab.loadSeq2Seq<ImportedSeq2Seq>(bytes)`) or use loadSafetensors. The caller owns it and
   * must call .delete().
   */
  loadSeq2Seq: <M extends Seq2Seq | ImportedSeq2Seq = Seq2Seq>(bytes: Uint8Array | ArrayBuffer) => M;
  /** A .safetensors translator (docs/safetensors.md); the caller owns it and must call .delete(). */
  loadSafetensors(bytes: Uint8Array | ArrayBuffer): ImportedSeq2Seq;
  /**
   * The bare encoder-decoder (parameters by PyTorch name, id batches), recurrent or, with
   * arch: 'transformer', the Transformer; the caller must .delete() it.
   */
  createSeq2SeqModel: <C extends Seq2SeqModelConfig>(
    config: C,
  ) => C extends TransformerModelConfig ? TransformerSeq2SeqModel : Seq2SeqModel;
  /** A character-level GPT on a corpus (docs/gpt.md); the caller must .delete() it. */
  createGptSession(config: GptSessionConfig): GptSession;
  /** A GPT session from GptSession.save() bytes; the caller must .delete() it. */
  loadGptSession(bytes: Uint8Array | ArrayBuffer): GptSession;
}

/**
 * The Seq2Seq build (loadAttentionLab({ variant: 'seq2seq' })): train, evaluate and translate, for
 * embedded widgets. No attention API, no ops, no model files: its models' save() throws.
 */
export interface Seq2SeqOnlyLab {
  /** §3.3: a new Seq2Seq model; the caller owns it and must call .delete(). */
  createSeq2Seq(config: Seq2SeqConfig): Seq2Seq;
  /** Leak diagnostics: malloc bytes in use, wasm memory size (only grows), live embind handles. */
  memoryStats(): { heapUsed: number; memorySize: number; handles: number };
}

/**
 * The Transformer build (loadAttentionLab({ variant: 'transformer' })): train, evaluate and
 * translate a Transformer greedily, for <transformer-demo>. No attention API, no ops, no recurrent
 * translators, no model files, no task 'pairs', no interventions, no beam search: its models'
 * save(), and translate() with `beam` or `interventions`, throw Errors saying so.
 */
export interface TransformerOnlyLab {
  /** §4: a new Transformer translator (config.arch must be 'transformer'); the caller must .delete() it. */
  createSeq2Seq(config: TransformerSeq2SeqConfig): TransformerSeq2Seq;
  /** Leak diagnostics: malloc bytes in use, wasm memory size (only grows), live embind handles. */
  memoryStats(): { heapUsed: number; memorySize: number; handles: number };
}

/**
 * The GPT build (loadAttentionLab({ variant: 'gpt' })): the GPT session alone, for a page section
 * on the poems. No attention API, no ops, no translators.
 */
export interface GptOnlyLab {
  createGptSession(config: GptSessionConfig): GptSession;
  loadGptSession(bytes: Uint8Array | ArrayBuffer): GptSession;
  /** Leak diagnostics: malloc bytes in use, wasm memory size (only grows), live embind handles. */
  memoryStats(): { heapUsed: number; memorySize: number; handles: number };
}

/**
 * loadAttentionLab's signatures, one per variant: the API object's type follows options.variant.
 * Loads the wasm module once (per JS realm) and resolves to the API. Throws JS Errors on bad input.
 */
export interface LoadAttentionLab {
  /**
   * The full module. fma: the 'full', 'transformer' and 'gpt' builds also come with fused
   * multiply-add (relaxed SIMD), loaded by default where hasRelaxedSimd(); false loads the plain
   * build anyway, true is an Error where the engine or the variant has none. The FMA build rounds
   * each multiply-add once: its numbers differ from the plain build's in the last bits.
   */
  (options?: { variant?: 'full'; fma?: boolean }): Promise<AttentionLab>;
  /**
   * The attention-only build (no ops, no Seq2Seq; a fraction of the download, for embedded widgets).
   * Loaded once per realm, separately from the full module.
   */
  (options: { variant: 'attention' }): Promise<AttentionOnlyLab>;
  /** The Seq2Seq-only build (see Seq2SeqOnlyLab), loaded once per realm like the others. */
  (options: { variant: 'seq2seq' }): Promise<Seq2SeqOnlyLab>;
  /** The Transformer-only build (see TransformerOnlyLab), loaded once per realm like the others. */
  (options: { variant: 'transformer'; fma?: boolean }): Promise<TransformerOnlyLab>;
  /** The GPT-only build (see GptOnlyLab), loaded once per realm like the others. */
  (options: { variant: 'gpt'; fma?: boolean }): Promise<GptOnlyLab>;
}

export { hasRelaxedSimd, loadAttentionLab, tensor } from '../attention-lab.mjs';
