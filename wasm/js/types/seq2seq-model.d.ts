// Types of the bare Seq2Seq model of the `attention-lab` package that tsc cannot take from the
// JavaScript: the configs, batches and results of wasm/bindings/seq2seq_model_bindings.cpp (no task
// or vocabulary, parameters by PyTorch state-dict name, explicit id batches); field names match the
// bindings. The class, Seq2SeqModel, is declared by the JSDoc of wasm/js/seq2seq-model.mjs.
import type { IdsInput, ScoreName, Tensor } from './attention-lab.js';
import type { CellName } from './seq2seq.js';
import type { Seq2SeqModel } from '../seq2seq-model.mjs';
export type { Seq2SeqModel } from '../seq2seq-model.mjs';

/** The recurrent encoder-decoder. Unknown keys are an error (a typo does not silently fall back to a default). */
export interface RnnSeq2SeqModelConfig {
  /** default 'rnn': this recurrent model */
  arch?: 'rnn';
  /** default 'rnn' */
  cell?: CellName;
  /** hidden size Hd; default 128 */
  hidden?: number;
  /** embedding size E; default (or 0): same as hidden */
  embedding?: number;
  /** source vocabulary size Vs, padding id 0 included (≥ 2) */
  srcVocab: number;
  /** target vocabulary size Vt, padding id 0 included (≥ 2) */
  tgtVocab: number;
  /** Luong attention over the encoder outputs; default true */
  attention?: boolean;
  /** default 'dot' */
  score?: ScoreName;
  /** Luong's tanh(W_c [dec; ctx] + b_c) layer; needs attention. Default false */
  attentionalTanh?: boolean;
  /** draws the initial weights; whole number 0 – 2^53−1, default 0 */
  seed?: number;
}

/**
 * The encoder-decoder Transformer (docs/transformer.md): nn.Embedding · √dModel + sinusoidal
 * positions, nn.Transformer (ReLU, no dropout), nn.Linear; parameters under the state-dict names of
 * that PyTorch module. Unknown keys are an error.
 */
export interface TransformerModelConfig {
  arch: 'transformer';
  /** encoder layers = decoder layers, 1 – 6; default 2 */
  layers?: number;
  /** attention heads, must divide dModel; default 2 */
  heads?: number;
  /** model size, ≤ 1024; default 32 */
  dModel?: number;
  /** feed-forward size, ≤ 4096; default 64 */
  dFF?: number;
  /** pre-norm layers (nn.Transformer's norm_first); default false (post-norm) */
  normFirst?: boolean;
  /** source vocabulary size Vs, padding id 0 included (≥ 2) */
  srcVocab: number;
  /** target vocabulary size Vt, padding id 0 included (≥ 2) */
  tgtVocab: number;
  /** draws the initial weights; whole number 0 – 2^53−1, default 0 */
  seed?: number;
}

export type Seq2SeqModelConfig = RnnSeq2SeqModelConfig | TransformerModelConfig;

/** Every layer's per-head attention weights of a Transformer's teacher-forced pass. */
export interface TransformerAttentionMaps {
  /** one (B, H, S, S) tensor per encoder layer */
  encoderSelf: Tensor[];
  /** one (B, H, T, T) tensor per decoder layer; 0 above the diagonal (causal) */
  decoderSelf: Tensor[];
  /** one (B, H, T, S) tensor per decoder layer: cross-attention over the source */
  cross: Tensor[];
}

/**
 * A padded, teacher-forced batch of token ids (whole numbers; 0 is padding in both vocabularies,
 * and the loss ignores targets equal to 0).
 */
export interface Seq2SeqBatch {
  /** (B, S) source ids; row b holds srcLengths[b] real tokens, then padding */
  src: IdsInput;
  /** (B) real source tokens per row, each in [1, S] */
  srcLengths: readonly number[];
  /** (B, T) decoder input: <sos> + target, then padding (the Transformer masks inputs equal to 0 as keys; the first must be real) */
  tgtIn: IdsInput;
  /** (B, T) what the loss compares with: target + <eos>, then padding */
  tgtOut: IdsInput;
}

export interface Seq2SeqParamInfo {
  /** PyTorch state-dict key, e.g. 'decoder.rnn.weight_hh_l0' */
  name: string;
  shape: number[];
}

export interface Seq2SeqForwardBackwardResult {
  /** mean cross-entropy over the non-pad targets */
  loss: number;
  /** (B, T, Vt) */
  logits: Tensor;
  /** (B, T, S) weights of each target step over the source; absent without attention */
  attention?: Tensor;
  /** the gradient of the loss for every parameter, by name */
  grads: Record<string, Tensor>;
}

/** What a Transformer's forwardBackward returns. */
export interface TransformerForwardBackwardResult {
  /** mean cross-entropy over the non-pad targets */
  loss: number;
  /** (B, T, Vt) */
  logits: Tensor;
  /** every layer's per-head attention weights */
  attention: TransformerAttentionMaps;
  /** the gradient of the loss for every parameter, by PyTorch state-dict name */
  grads: Record<string, Tensor>;
}

/** torch.optim.Adam's settings (weightDecay: L2 added to the gradient, not AdamW). */
export interface AdamStepOptions {
  lr: number;
  /** default 0.9 */
  beta1?: number;
  /** default 0.999 */
  beta2?: number;
  /** default 1e-8 */
  eps?: number;
  /** default 0 */
  weightDecay?: number;
  /**
   * Transformer only: warm-up steps of the Noam schedule, lr · min(step / warmup, √(warmup / step));
   * default 0 (constant lr)
   */
  warmup?: number;
}

/** createSeq2SeqModel({arch: 'transformer', …}): the same methods, with the Transformer's maps. */
export type TransformerSeq2SeqModel = Seq2SeqModel<TransformerForwardBackwardResult>;
