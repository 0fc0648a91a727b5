// The bare Seq2Seq model of the `attention-lab` package: a JS class around one embind
// Seq2SeqModelHandle (wasm/bindings/seq2seq_model_bindings.cpp). No task, no vocabulary: explicit
// id batches and parameters under PyTorch's state-dict names, to load a PyTorch state dict and
// compare logits, losses, gradients and Adam steps number for number.
// The wrapper OWNS the C++ object: call delete() once you are done with it (wasm memory is not
// garbage-collected); any call after delete() throws. Every method rethrows the core's {error} as
// a JS Error; a failed call leaves the model usable. Types: shared/types/seq2seq-model.d.ts.

import { createByArch, refuseIdleAttributionSteps } from './arch.mjs';
import { OwnedHandle } from './owned-handle.mjs';
import { unwrap } from './unwrap.mjs';
import { idsOf } from './ids.mjs';

const listOf = (v) => (ArrayBuffer.isView(v) ? Array.from(v) : v);

function batchOf(batch) {
  if (batch === null || typeof batch !== 'object') return batch ?? null;
  const b = { ...batch };
  for (const k of ['src', 'tgtIn', 'tgtOut']) if (k in b) b[k] = idsOf(b[k]);
  if ('srcLengths' in b) b.srcLengths = listOf(b.srcLengths);
  return b;
}

export class Seq2SeqModel {
  #owned;

  /** @internal Use AttentionLab.createSeq2SeqModel. Takes ownership of `handle`. */
  constructor(handle) {
    this.#owned = new OwnedHandle(handle, 'Seq2SeqModel');
  }

  /**
   * config.arch picks the model: 'rnn' (the default: the recurrent encoder-decoder) or
   * 'transformer' (wasm/bindings/transformer_model_bindings.cpp, whose handle has the same
   * methods, so this one class wraps both).
   */
  static create(core, config) {
    return new Seq2SeqModel(createByArch(core, config, { recurrent: 'createSeq2SeqModel', transformer: 'createTransformerModel' }));
  }

  #live() {
    return this.#owned.get();
  }

  /** Every parameter in the model's order: PyTorch state-dict name and shape. */
  paramNames() {
    return unwrap(this.#live().paramNames());
  }

  /** A copy of one parameter's values. */
  getParam(name) {
    return unwrap(this.#live().getParam(name ?? null));
  }

  /** Copies `value` into the named parameter; its shape must equal the parameter's. */
  setParam(name, value) {
    unwrap(this.#live().setParam(name ?? null, value ?? null));
  }

  /**
   * Teacher-forced forward and backward pass: mean cross-entropy over non-pad targets, the
   * logits, the attention weights (attention models only) and every parameter's gradient.
   */
  forwardBackward(batch) {
    return unwrap(this.#live().forwardBackward(batchOf(batch)));
  }

  /**
   * Attribution of each target word's log-probability to the source tokens' embeddings:
   * {src, target: id tensors, method?: 'gradient-input' | 'integrated-gradients', steps?}. A
   * Transformer's `attention` is each word's rollout onto the source (docs/transformer.md).
   */
  attribution(request) {
    refuseIdleAttributionSteps(request);
    const r = request !== null && typeof request === 'object' ? { ...request, src: idsOf(request.src), target: idsOf(request.target) } : request;
    return unwrap(this.#live().attribution(r ?? null));
  }

  /** The loss of a batch, without gradients. */
  loss(batch) {
    return unwrap(this.#live().loss(batchOf(batch)));
  }

  /** One torch.optim.Adam step with the gradients of the last forwardBackward. */
  adamStep(options) {
    unwrap(this.#live().adamStep(options ?? null));
  }

  /** torch.nn.utils.clip_grad_norm_ over every gradient; returns the norm before clipping. */
  clipGradNorm(maxNorm) {
    return unwrap(this.#live().clipGradNorm(maxNorm ?? null));
  }

  get deleted() {
    return this.#owned.deleted;
  }

  /** Frees the C++ model. Safe to call twice. */
  delete() {
    this.#owned.delete();
  }
}
