// Types of the Seq2Seq part of the `attention-lab` package that tsc cannot take from the
// JavaScript: the configs the bindings read and the results they return (wasm/bindings/
// seq2seq_bindings.cpp and the Transformer's); field names match the bindings exactly. The
// translators' own classes, Seq2Seq and ImportedSeq2Seq, are declared by the JSDoc of
// wasm/js/seq2seq.mjs and safetensors.mjs. Kept in one file so the package has one Seq2Seq entry:
// the types of three kinds of translator (recurrent, imported from .safetensors, Transformer).
import type { ScoreName } from './attention-lab.js';
import type { Seq2Seq } from '../seq2seq.mjs';
export type { Seq2Seq } from '../seq2seq.mjs';
export type { ImportedSeq2Seq } from '../safetensors.mjs';

/**
 * note: the note's five pairs; zh-en: Chinese → English sentences from a small grammar with
 * word-order changes (every target word aligned to its source words); dates; reverse; copy;
 * pairs: your own sentence pairs (Seq2SeqPairsOptions).
 */
export type Seq2SeqTaskName = 'note' | 'zh-en' | 'dates' | 'reverse' | 'copy' | 'pairs';

/**
 * Task 'pairs': your own sentence pairs, given with the config (any other task with these keys
 * is an error). Each bad line is an Error naming it: "line 7: no tab between source and
 * target", "line 12: the target has 83 words; at most 64".
 */
export interface Seq2SeqPairsOptions {
  /**
   * One `source<TAB>target` per line; blank lines and lines starting with # are skipped, a CRLF
   * or a leading byte-order mark is fine. At most 20000 pairs, 64 tokens and 4096 bytes a side,
   * 1 MiB in all. Identical pairs count once. Required with task 'pairs'.
   */
  pairs?: string;
  /** 'words' (split at whitespace) or 'chars' (one token per character, whitespace dropped, also from what you translate); default 'words' */
  tokenize?: 'words' | 'chars';
  /**
   * The share of the distinct pairs held out (never trained on; evaluate() scores them), 0–0.5,
   * chosen by a shuffle seeded by taskOptions.seed; default 0.1. 0: nothing is held out and
   * evaluate() scores the training pairs (heldOutIsTrainingData). A share that holds none out
   * (3 pairs at 0.1) is an Error. The vocabularies come from the training pairs only.
   */
  heldOut?: number;
}

/** info().pairs of a pairs session. */
export interface Seq2SeqPairsInfo {
  tokenize: 'words' | 'chars';
  /** the share held out */
  heldOut: number;
  trainPairs: number;
  /** 0 when nothing is held out */
  heldOutPairs: number;
}
export type CellName = 'rnn' | 'gru' | 'lstm';

/** Unknown keys are an error (so a typo does not silently fall back to a default). */
export interface Seq2SeqConfig extends Seq2SeqPairsOptions {
  /** the recurrent translator (the default); 'transformer': see TransformerSeq2SeqConfig */
  arch?: 'rnn';
  task: Seq2SeqTaskName;
  /** default 'rnn' */
  cell?: CellName;
  /** hidden size, 1–4096; default 128 */
  hidden?: number;
  /** embedding size; default (or 0): same as hidden */
  embedding?: number;
  /** Luong attention over the encoder outputs; default true */
  attention?: boolean;
  /** default 'dot', as in the note */
  score?: ScoreName;
  /** Luong's tanh(W_c [dec; ctx] + b_c) layer; needs attention. Default false */
  attentionalTanh?: boolean;
  /** drives the weights, the task data and the batch sampling; whole number 0 – 2^53−1, default 1 */
  seed?: number;
  /** 1–1024; default 1 for the note (its recipe), 32 otherwise */
  batchSize?: number;
  /**
   * Adam's learning rate: any positive float32 (up to 3.4e38); default 1e-3. Large rates are
   * allowed on purpose: train() reports the divergence and keeps the last good weights.
   */
  learningRate?: number;
  /** clip the gradient norm to this before each step; 0 or absent: no clipping */
  clipNorm?: number;
  /** the task's data; absent keys take the defaults below */
  taskOptions?: Seq2SeqTaskOptions;
}

/**
 * Options of the generated tasks. A key the task does not read is an error (the note's five
 * pairs read none; dates: seed, heldOut; zh-en: seed, heldOut, train; pairs: seed).
 */
export interface Seq2SeqTaskOptions {
  /** draws the task's data; default: the config's seed */
  seed?: number;
  /** held-out examples, 1–10000; default (or 0): dates 2000, zh-en and reverse/copy 500 */
  heldOut?: number;
  /** reverse/copy/zh-en: training examples, 1–20000; default (or 0): 10000 (zh-en 5000) */
  train?: number;
  /** reverse/copy: shortest string, 1–64; default 5 */
  minLen?: number;
  /** reverse/copy: longest string, minLen–64; default 60 */
  maxLen?: number;
  /** reverse/copy: alphabet size, 2–26 (a, b, c, …); default 20 */
  symbols?: number;
}

/** What info() of every training session reports besides its architecture. */
export interface SessionInfo {
  task: Seq2SeqTaskName;
  /**
   * every option, defaults filled in: heldOut is the held-out set's size (0 for pairs, whose share
   * is pairs.heldOut), train the training set's for reverse, copy and zh-en (0 for the other
   * tasks, which take no count)
   */
  taskOptions: Required<Seq2SeqTaskOptions>;
  seed: number;
  batchSize: number;
  learningRate: number;
  clipNorm: number;
  /** padding, <sos>, <eos> and <unk> included */
  sourceVocabSize: number;
  targetVocabSize: number;
  sourceTokenizer: 'words' | 'chars';
  targetTokenizer: 'words' | 'chars';
  /** the longest sentence translate() takes, in source tokens */
  maxSourceTokens: number;
  parameterCount: number;
  /** Adam steps trained so far */
  step: number;
  /** task 'pairs' only */
  pairs?: Seq2SeqPairsInfo;
}

/** A recurrent translator's architecture, as info() reports it (a session's or a file's). */
export interface RecurrentArchitecture {
  cell: CellName;
  hidden: number;
  /** the effective embedding size */
  embedding: number;
  attention: boolean;
  score: ScoreName;
  attentionalTanh: boolean;
}

export interface Seq2SeqInfo extends SessionInfo, RecurrentArchitecture {
  /** as Seq2Seq.arch: 'rnn', or 'transformer' for a session loadSeq2Seq() read from a Transformer's file */
  arch: 'rnn' | 'transformer';
}

export interface TrainResult {
  /** the training loss of each step of this call */
  losses: Float32Array;
  /** per step: the fraction of the batch's target tokens whose teacher-forced argmax is right */
  tokenAccuracy: Float32Array;
  /** total steps trained */
  step: number;
}

/**
 * What translate() throws for a sentence of more source tokens than `info().maxSourceTokens`
 * ("sentence has 70 tokens; the limit is 64"): `code` and `details` let a caller word it in its
 * own language without parsing the message.
 */
export interface SentenceTooLongError extends Error {
  code: 'sentenceTooLong';
  details: { count: number; limit: number };
}

/** What train() throws when training diverges: the session keeps the last good step's state. */
export interface TrainDivergedError extends Error {
  /** the steps of this call that completed before the divergence */
  completed: TrainResult;
}

export interface EvaluateOptions {
  /** evaluate only the first this many examples (1–10000); default all */
  maxExamples?: number;
  /** reverse/copy only: fresh strings of exactly this length (1–64) instead of the held-out set */
  length?: number;
  /** with length: how many strings (1–10000); default 200 */
  count?: number;
  /** with length: draws the strings; default 1, so every model sees the same ones */
  seed?: number;
}

export interface EvaluateResult {
  /** mean cross-entropy per target token (teacher-forced) */
  loss: number;
  /** fraction of target tokens whose teacher-forced argmax is right */
  tokenAccuracy: number;
  /**
   * tokenAccuracy by position in the target (index t: the (t+1)-th token written, `<eos>`
   * included), over the examples whose target has one: which part of a sequence the model gets
   * wrong (for reverse, position t copies source position length − 1 − t).
   */
  tokenAccuracyByPosition: number[];
  /** fraction of examples whose greedy translation is exactly the reference */
  exactMatch: number;
  examples: number;
  /** the note's five pairs are both training and test data (never with a length) */
  heldOutIsTrainingData: boolean;
  /**
   * Teacher-forced: of the target tokens that translate source tokens (content words, not
   * the/a/in or <eos>), the fraction whose attention argmax falls on one of them. null without
   * attention, or for a task without alignments (dates).
   */
  alignmentAccuracy: number | null;
  /** the target tokens alignmentAccuracy was computed over (0 when it is null) */
  alignedTokens: number;
  /** greedy exact match per source-length bucket (zh-en: 4–6, 7–9, 10–11, 12–14 words) */
  exactMatchByLength: LengthBucketResult[];
}

export interface HeldOutExample {
  source: string;
  target: string;
  /**
   * Per target token, the indices of the source tokens it translates (empty for a function
   * word); an empty array for a task without alignments (dates).
   */
  alignment: number[][];
}

export interface LengthBucketResult {
  /** source tokens, inclusive */
  minLength: number;
  maxLength: number;
  examples: number;
  /** 0 when the bucket has no examples */
  exactMatch: number;
}

export interface TranslateOptions {
  /** beam search with this width (1–64); absent: greedy decoding */
  beam?: number;
  /** output tokens, <eos> included (1–1024); default max(32, the task's longest target + 1) */
  maxLength?: number;
  /** candidates kept per step in the trace; default 5 */
  topK?: number;
  /**
   * Beam search only (give `beam` too): a hypothesis scores log p / length^α, so a larger α
   * favours longer hypotheses; 0 scores the raw log-probability (0–4; default 1).
   */
  lengthAlpha?: number;
  /**
   * Greedy decoding only (not with beam): applied at
   * their steps, decoding going on from there. The result is the intervened translation, with the
   * plain one beside it in `intervention`.
   */
  interventions?: Intervention[];
}

/**
 * One change to one decoding step t (0-based):
 * - 'force-attention': all the attention on source token `source` (0-based), a one-hot row, so
 *   the step's context is exactly that token's encoder output;
 * - 'edit-attention': the row replaced by `weights` (one number ≥ 0 per source token, summing to
 *   more than 0), renormalised;
 * - 'mask-source': source token `source` taken out of the row, the rest renormalised;
 * - 'force-token': `token` (a target word, or '<eos>' to stop there) is the step's output and the
 *   next step's input instead of the argmax (another top-k candidate, for instance).
 * At one step: at most one force or edit (masks come after it) and one forced token. A step the
 * decoding does not reach is an Error.
 *
 * On the Transformer, 'force-attention', 'edit-attention' and 'mask-source' change the row of its
 * cross-attention's head `head` of layer `layer` (every head / layer when left out), and that
 * head's context is the new row's mix of the value rows (forced onto `source`: exactly value row
 * `source`); at one step, one force or edit per head. 'force-token' as above, and
 * - 'zero-head': head `head` of layer `layer` of one `attention` ('encoder-self', 'decoder-self' or
 *   'cross', the default) outputs zeros, at step `step` or, without a step, at every step (the
 *   encoder's self-attention runs once: no step).
 */
export interface Intervention {
  /** required except for zero-head */
  step?: number;
  kind: 'force-attention' | 'edit-attention' | 'mask-source' | 'force-token' | 'zero-head';
  source?: number;
  weights?: ArrayLike<number>;
  token?: string;
  /** Transformer only; default 'cross' */
  attention?: 'cross' | 'encoder-self' | 'decoder-self';
  /** Transformer only (0-based); absent: every layer */
  layer?: number;
  /** Transformer only (0-based); absent: every head */
  head?: number;
}

/** translate()'s `intervention`: the plain translation beside the intervened one. */
export interface InterventionComparison {
  original: { output: string[]; text: string; finished: boolean; steps: DecodeStep[] };
  /** per step of the intervened translation: its token differs from the original's at that step (or the original had ended) */
  changed: boolean[];
  /** the first changed step; -1: the same words */
  firstChange: number;
  /** (S, Hd) the encoder outputs the attention mixes; null without attention and for the Transformer */
  encoderOutputs: { shape: number[]; data: Float32Array } | null;
  /** Transformer only: (L, S, Dm) the values each layer's cross-attention mixes */
  crossValues?: { shape: number[]; data: Float32Array };
}

/** A step of an intervened translation. */
export interface IntervenedDecodeStep extends DecodeStep {
  /** the token was forced (prob is then the model's probability of it) */
  forcedToken: boolean;
  /** the attention row was forced, edited or masked (attention holds the row used) */
  editedAttention: boolean;
  /** recurrent translators: (Hd) Σ_s attention[s] · encoderOutputs[s]; empty without attention */
  context?: Float32Array;
  /** Transformer: (L, Dm) each layer's cross-attention context, heads concatenated (head h: columns h·Dh … (h+1)·Dh − 1) */
  crossContext?: { shape: number[]; data: Float32Array };
}

export interface AttributionOptions {
  /** default 'gradient-input' */
  method?: 'gradient-input' | 'integrated-gradients';
  /** integrated gradients' n (1–1024); default 32; an error with gradient-input, where it has no effect */
  steps?: number;
  /** of the greedy translation whose words are attributed */
  maxLength?: number;
}

/**
 * Each output word's log-probability f_t = log p(y_t | source, y_<t) (teacher-forced) attributed
 * to the source tokens through the model's own backward pass: gradient × input
 * a[t, s] = Σ_e x[s, e] ∂f_t/∂x[s, e] on the source embeddings x, or integrated gradients from the
 * zero embedding (n midpoint steps; Σ_s a[t, s] ≈ f_t(x) − f_t(0)). For a Transformer x is the
 * token embedding before √dModel and the positional encoding (the baseline keeps the positions),
 * and `attention` is each word's rollout onto the source (docs/transformer.md).
 */
export interface AttributionResult {
  method: 'gradient-input' | 'integrated-gradients';
  steps: number;
  /** (T, S) a[t, s] */
  scores: { shape: number[]; data: Float32Array };
  /** (T, S) the attention of the same words; null without attention */
  attention: { shape: number[]; data: Float32Array } | null;
  /** (T) f_t(x) */
  logProb: Float32Array;
  /** (T) f_t(0): integrated gradients only */
  baselineLogProb: Float32Array | null;
  /** (T) Spearman's ρ of scores[t] and attention[t]; null without attention or when a row is constant */
  rankCorrelation: (number | null)[];
}

export interface TimelineOptions {
  /** record every this many training steps (1–1000000); default 10 */
  every?: number;
  /** frames kept at most (2–4096); when full, every other frame is dropped and `every` doubles. Default 200 */
  capacity?: number;
}

export interface TimelineFrame {
  /** training steps taken when recorded */
  step: number;
  /** the probe's greedy translation, '<eos>' included when produced */
  output: string[];
  /** (T, S) its attention (a Transformer's: each step's rollout onto the source); null without attention */
  attention: { shape: number[]; data: Float32Array } | null;
}

/** The attention of a fixed probe sentence during training (not saved with the model). */
export interface AttentionTimeline {
  probe: SourceToken[];
  /** the current spacing of the frames, in steps */
  every: number;
  capacity: number;
  startStep: number;
  recording: boolean;
  frames: TimelineFrame[];
}

/** Seq2Seq.attribution(): the words of the greedy translation (its steps, '<eos>' included). */
export interface TranslationAttribution extends AttributionResult {
  source: SourceToken[];
  text: string;
  /** (T) the attributed output words */
  words: string[];
}

export interface SourceToken {
  /** the vocabulary token: the text, or '<unk>' */
  token: string;
  /** as typed */
  text: string;
  id: number;
  /** not in the vocabulary: encoded as <unk> */
  unknown: boolean;
}

export interface TokenProb {
  token: string;
  prob: number;
}

export interface DecodeStep {
  /** the chosen (argmax) token; '<eos>' on the last step of a finished translation */
  token: string;
  prob: number;
  /** most probable first */
  top: TokenProb[];
  /** (S) weights over the source tokens; empty without attention */
  attention: Float32Array;
}

export interface BeamNode {
  token: string;
  /** index into the previous step's nodes; -1: the <sos> root */
  parent: number;
  /** p(token | parent's prefix) */
  prob: number;
  logProb: number;
  score: number;
  finished: boolean;
  top: TokenProb[];
  attention: Float32Array;
}

export interface BeamHypothesis {
  output: string[];
  text: string;
  logProb: number;
  /** logProb / length^α, what hypotheses are ranked by */
  score: number;
  finished: boolean;
  /** its last node: beams.steps[step][node] */
  step: number;
  node: number;
}

export interface BeamTrace {
  width: number;
  /** best first */
  hypotheses: BeamHypothesis[];
  /** steps[t]: the beams kept after step t */
  steps: BeamNode[][];
}

export interface TranslateResult {
  source: SourceToken[];
  /** output tokens without <eos> */
  output: string[];
  text: string;
  /** <eos> was produced within maxLength */
  finished: boolean;
  /** greedy decoding only (IntervenedDecodeStep with interventions) */
  steps?: DecodeStep[] | IntervenedDecodeStep[];
  /** beam search only */
  beams?: BeamTrace;
  /** with interventions only */
  intervention?: InterventionComparison;
}

/** How a .safetensors state dict names the output layer: 'project' (out.weight) or 'book' (decoder.out.weight). */
export type StateDictNames = 'project' | 'book';

export interface SaveOptions {
  /** default 'atlb' (resumable session); 'safetensors': PyTorch's format */
  format?: 'atlb' | 'safetensors';
  /** safetensors only; default 'project' */
  names?: StateDictNames;
}

export interface ImportedSeq2SeqInfo extends RecurrentArchitecture {
  format: 'safetensors';
  /** the file's config says arch 'seq2seq' (docs/safetensors.md); info() says 'rnn', as sessions do */
  arch: 'rnn';
  tokenizer: 'words' | 'chars';
  sourceTokenizer: 'words' | 'chars';
  targetTokenizer: 'words' | 'chars';
  /** the longest sentence translate() takes, in source tokens */
  maxSourceTokens: number;
  /** how the file named its output layer */
  names: StateDictNames;
  sourceVocabSize: number;
  targetVocabSize: number;
  parameterCount: number;
  /** the file's other __metadata__ entries (a session's export adds `task`) */
  metadata: Record<string, string>;
}

/** A Transformer's sizes, as its info() reports them (trained here or read from a file). */
export interface TransformerSizes {
  layers: number;
  heads: number;
  dModel: number;
  dFF: number;
  /** pre-norm layers (true) or PyTorch's default post-norm */
  normFirst: boolean;
}

/** info() of a Transformer read from .safetensors (config arch 'transformer'). */
export interface ImportedTransformerInfo extends TransformerSizes {
  format: 'safetensors';
  arch: 'transformer';
  tokenizer: 'words' | 'chars';
  sourceTokenizer: 'words' | 'chars';
  targetTokenizer: 'words' | 'chars';
  /** the longest sentence translate() takes, in source tokens */
  maxSourceTokens: number;
  /** always 'project': the reference module's names */
  names: 'project';
  sourceVocabSize: number;
  targetVocabSize: number;
  parameterCount: number;
  metadata: Record<string, string>;
}

/** Decoder fed <sos> + target (teacher forcing), with the file's ids. */
export interface TeacherForcedResult {
  sourceIds: number[];
  targetIn: number[];
  targetOut: number[];
  /** (T, Vt): PyTorch's logits, index for index */
  logits: { shape: number[]; data: Float32Array };
  /** (T, S); null without attention */
  attention: { shape: number[]; data: Float32Array } | null;
}

// ---- The Transformer on the same tasks (wasm/bindings/transformer_session_bindings.cpp; the
// full module only). The same methods and result fields as the recurrent translator, plus every
// layer's and head's attention in a translation's trace (docs/transformer.md).

/**
 * The Transformer on a task. Unknown keys are an error. Every setting left out takes the session's default for the task:
 * the values below, except on dates (1 layer, 4 heads, dModel 32, dFF 64, pre-norm, batch 32,
 * learningRate 1e-2, warmup 200: the recipe tuned to reach 98% held-out exact match fastest)
 * and zh-en; docs/transformer.md lists both with their measurements.
 */
export interface TransformerSeq2SeqConfig extends Seq2SeqPairsOptions {
  arch: 'transformer';
  task: Seq2SeqTaskName;
  /** encoder layers = decoder layers, 1–6; default 2 */
  layers?: number;
  /** attention heads, must divide dModel; default 4 */
  heads?: number;
  /** model size, 1–1024; default 64 */
  dModel?: number;
  /** feed-forward size, 1–4096; default 128 */
  dFF?: number;
  /** pre-norm layers (true) or PyTorch's default post-norm; default false */
  normFirst?: boolean;
  /** Adam's rate rises linearly over this many steps to learningRate, then decays as 1/√step; 0: constant. Default 100 */
  warmup?: number;
  /** drives the weights, the task data and the batch sampling; default 1 */
  seed?: number;
  /** 1–1024; default 32 */
  batchSize?: number;
  /** Adam's peak learning rate: any positive float32; default 2e-3 */
  learningRate?: number;
  /** clip the gradient norm to this before each step; 0: no clipping. Default 1 */
  clipNorm?: number;
  taskOptions?: Seq2SeqTaskOptions;
}

export interface TransformerSeq2SeqInfo extends SessionInfo, TransformerSizes {
  arch: 'transformer';
  warmup: number;
}

/** A row-major array: `data` has the product of `shape` values. */
export interface AttentionMaps {
  shape: number[];
  data: Float32Array;
}

/** What a Transformer adds to each decoding step (greedy step or beam node) at output step t. */
export interface TransformerStepTrace {
  /** (L, H, S): every decoder layer's and head's cross-attention over the source */
  cross: AttentionMaps;
  /** (L, H, t + 1): every decoder layer's and head's causal self-attention over the prefix */
  self: AttentionMaps;
  /** (t + 1) attention rollout onto the decoder's input tokens; with `attention` (the rollout onto the source) it sums to 1 */
  rolloutTarget: Float32Array;
}

export interface TransformerDecodeStep extends DecodeStep, TransformerStepTrace {}
export interface TransformerBeamNode extends BeamNode, TransformerStepTrace {}

export interface TransformerBeamTrace {
  width: number;
  hypotheses: BeamHypothesis[];
  steps: TransformerBeamNode[][];
}

export interface TransformerTranslateResult {
  source: SourceToken[];
  output: string[];
  text: string;
  finished: boolean;
  /** greedy only; each step's `attention` is its rollout onto the source */
  steps?: TransformerDecodeStep[];
  /** beam search only */
  beams?: TransformerBeamTrace;
  /** the encoder: self-attention (L, H, S, S) of every layer and head, and its rollout (S, S) */
  encoder: { self: AttentionMaps; rollout: AttentionMaps };
  /** with interventions only (crossValues set, encoderOutputs null) */
  intervention?: InterventionComparison;
}

export interface TransformerSeq2Seq extends Omit<Seq2Seq, 'arch' | 'info' | 'translate'> {
  readonly arch: 'transformer';
  info(): TransformerSeq2SeqInfo;
  translate(text: string, options?: TranslateOptions): TransformerTranslateResult;
}
