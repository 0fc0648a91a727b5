// The bare Seq2Seq model of the `attention-lab` package: a JS class around one embind
// Seq2SeqModelHandle (wasm/bindings/seq2seq_model_bindings.cpp). No task, no vocabulary: explicit
// id batches and parameters under PyTorch's state-dict names, to load a PyTorch state dict and
// compare logits, losses, gradients and Adam steps number for number.
// The wrapper OWNS the C++ object: call delete() once you are done with it (wasm memory is not
// garbage-collected); any call after delete() throws. Every method rethrows the core's {error} as
// a JS Error; a failed call leaves the model usable. Types: the JSDoc here; the
// configs, batches and results in types/seq2seq-model.d.ts.

import { createByArch, refuseIdleAttributionSteps } from './arch.mjs';
import { OwnedHandle } from './owned-handle.mjs';
import { unwrap } from './unwrap.mjs';
import { idsOf } from './ids.mjs';
/** @import { Core } from './types/core.js' */
/** @import { EmbindHandle } from './owned-handle.mjs' */
/** @import { IdsInput, Tensor, TensorInput } from './types/attention-lab.js' */
/** @import { AttributionResult } from './types/seq2seq.js' */
/**
 * @import { AdamStepOptions, Seq2SeqBatch, Seq2SeqForwardBackwardResult, Seq2SeqModelConfig,
 *   Seq2SeqParamInfo } from './types/seq2seq-model.js'
 */

/** @param {readonly number[] | ArrayLike<number>} v */
const listOf = (v) => (ArrayBuffer.isView(v) ? Array.from(v) : v);

/**
 * The batch as the binding reads it: id tensors' data as arrays of numbers where they are typed arrays.
 * @param {Seq2SeqBatch} batch
 */
function batchOf(batch) {
  if (batch === null || typeof batch !== 'object') return batch ?? null;
  /** @type {Record<string, any>} */
  const b = { ...batch };
  for (const k of ['src', 'tgtIn', 'tgtOut']) if (k in b) b[k] = idsOf(b[k]);
  if ('srcLengths' in b) b.srcLengths = listOf(b.srcLengths);
  return b;
}

/**
 * Owns wasm memory: call delete() when done (safe twice; any other call afterwards throws).
 * createSeq2SeqModel({ arch: 'transformer', … }) gives a TransformerSeq2SeqModel: the same methods,
 * with the Transformer's attention maps in forwardBackward's result.
 * @template [Result=Seq2SeqForwardBackwardResult] what forwardBackward returns
 */
export class Seq2SeqModel {
  #owned;

  /**
   * Use AttentionLab.createSeq2SeqModel. Takes ownership of `handle`.
   * @internal
   * @param {EmbindHandle} handle
   */
  constructor(handle) {
    this.#owned = new OwnedHandle(handle, 'Seq2SeqModel');
  }

  /**
   * config.arch picks the model: 'rnn' (the default: the recurrent encoder-decoder) or
   * 'transformer' (wasm/bindings/transformer_model_bindings.cpp, whose handle has the same
   * methods, so this one class wraps both).
   * @internal
   * @param {Core} core
   * @param {Seq2SeqModelConfig} config
   * @returns {Seq2SeqModel<any>}
   */
  static create(core, config) {
    return new Seq2SeqModel(createByArch(core, config, { recurrent: 'createSeq2SeqModel', transformer: 'createTransformerModel' }));
  }

  /** @returns {EmbindHandle} */
  #live() {
    return this.#owned.get();
  }

  /**
   * Every parameter in the model's order: PyTorch state-dict name and shape.
   * @returns {Seq2SeqParamInfo[]}
   */
  paramNames() {
    return unwrap(this.#live().paramNames());
  }

  /**
   * A copy of one parameter's values; throws for an unknown name (the message lists them).
   * @param {string} name
   * @returns {Tensor}
   */
  getParam(name) {
    return unwrap(this.#live().getParam(name ?? null));
  }

  /**
   * Copies `value` into the named parameter; its shape must equal the parameter's, values finite.
   * @param {string} name
   * @param {TensorInput} value
   * @returns {void}
   */
  setParam(name, value) {
    unwrap(this.#live().setParam(name ?? null, value ?? null));
  }

  /**
   * Teacher-forced forward and backward pass: mean cross-entropy over non-pad targets, the
   * logits, the attention weights (attention models only) and every parameter's gradient.
   * @param {Seq2SeqBatch} batch
   * @returns {Result}
   */
  forwardBackward(batch) {
    return unwrap(this.#live().forwardBackward(batchOf(batch)));
  }

  /**
   * Attribution of each target word's log-probability to the source tokens' embeddings:
   * {src, target: id tensors, method?: 'gradient-input' | 'integrated-gradients', steps?}. A
   * Transformer's `attention` is each word's rollout onto the source (docs/transformer.md). src
   * and target are (S) and (T) id tensors without padding; the words are the target's after <sos>,
   * teacher-forced. steps: integrated gradients' n (1–1024; default 32), an error with
   * gradient-input, where it has no effect.
   * @param {{ src: IdsInput, target: IdsInput, method?: 'gradient-input' | 'integrated-gradients', steps?: number }} request
   * @returns {AttributionResult}
   */
  attribution(request) {
    refuseIdleAttributionSteps(request);
    const r = request !== null && typeof request === 'object' ? { ...request, src: idsOf(request.src), target: idsOf(request.target) } : request;
    return unwrap(this.#live().attribution(r ?? null));
  }

  /**
   * The loss of a batch, without gradients.
   * @param {Seq2SeqBatch} batch
   * @returns {number}
   */
  loss(batch) {
    return unwrap(this.#live().loss(batchOf(batch)));
  }

  /**
   * One torch.optim.Adam step with the gradients of the last forwardBackward.
   * @param {AdamStepOptions} options
   * @returns {void}
   */
  adamStep(options) {
    unwrap(this.#live().adamStep(options ?? null));
  }

  /**
   * torch.nn.utils.clip_grad_norm_ over every gradient; returns the norm before clipping.
   * @param {number} maxNorm
   * @returns {number}
   */
  clipGradNorm(maxNorm) {
    return unwrap(this.#live().clipGradNorm(maxNorm ?? null));
  }

  /** @returns {boolean} */
  get deleted() {
    return this.#owned.deleted;
  }

  /**
   * Frees the C++ model. Safe to call twice.
   * @returns {void}
   */
  delete() {
    this.#owned.delete();
  }
}
