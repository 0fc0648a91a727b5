// The GPT session of the `attention-lab` package: a JS class around one embind GptSessionHandle
// (wasm/bindings/gpt_session_bindings.cpp): a character-level GPT trained on a corpus (the Tang
// poems or the caller's own text), evaluated against unigram and bigram baselines, sampled, saved
// and loaded. The wrapper OWNS the C++ object: call delete() once done; any call after delete()
// throws. Every method rethrows the core's {error} as a JS Error and leaves the session usable.
// Types: the JSDoc here; the config and results in types/gpt.d.ts.
import { OwnedHandle } from './owned-handle.mjs';
import { unwrap } from './unwrap.mjs';
/** @import { Core } from './types/core.js' */
/** @import { EmbindHandle } from './owned-handle.mjs' */
/**
 * @import { GptEvalResult, GptHeadScores, GptInfo, GptSampleOptions, GptSampleResult, GptSessionConfig }
 *   from './types/gpt.js'
 */
/** @import { TrainResult } from './types/seq2seq.js' */

/**
 * @param {Uint8Array | ArrayBuffer | ArrayBufferView} bytes
 * @returns {Uint8Array}
 */
function asSessionBytes(bytes) {
  if (bytes instanceof Uint8Array) return bytes;
  if (bytes instanceof ArrayBuffer) return new Uint8Array(bytes);
  if (ArrayBuffer.isView(bytes)) return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  throw new Error('loadGptSession() needs the bytes of a GptSession.save() file as a Uint8Array or ArrayBuffer');
}

/** A GPT session; the caller owns it and must call .delete(). Methods throw Errors on bad input. */
export class GptSession {
  #owned;

  /**
   * Use AttentionLab.createGptSession / loadGptSession. Takes ownership of `handle`.
   * @internal
   * @param {EmbindHandle} handle
   */
  constructor(handle) {
    this.#owned = new OwnedHandle(handle, 'GPT session');
  }

  /**
   * config: {text, heldOut?, blockSize?, layers?, heads?, dModel?, batchSize?, learningRate?, warmup?, seed?, windows?, drills?}.
   * @internal
   * @param {Core} core
   * @param {GptSessionConfig} config
   * @returns {GptSession}
   */
  static create(core, config) {
    if (config === null || typeof config !== 'object' || Array.isArray(config)) {
      throw new Error('createGptSession(config) needs a config object with text (the corpus)');
    }
    return new GptSession(unwrap(core.createGptSession(config)));
  }

  /**
   * @internal
   * @param {Core} core
   * @param {Uint8Array | ArrayBuffer} bytes
   * @returns {GptSession}
   */
  static load(core, bytes) {
    return new GptSession(unwrap(core.loadGptSession(asSessionBytes(bytes))));
  }

  /**
   * `steps` Adam steps on random windows of the training text: each step's mean loss per
   * character (nats) and next-character accuracy, and the step count, as a translator's train().
   * If training diverges it throws a TrainDivergedError, whose `completed` holds the steps that
   * did complete; the session keeps the state after the last of them.
   * @param {number} steps
   * @returns {TrainResult}
   */
  train(steps) {
    if (typeof steps !== 'number') throw new Error('train(steps): steps must be a number');
    return unwrap(this.#owned.get().train(steps));
  }

  /**
   * Losses per character (nats): training, held-out, and the unigram and bigram baselines on the held-out text.
   * @returns {GptEvalResult}
   */
  evaluate() {
    return unwrap(this.#owned.get().evaluate());
  }

  /**
   * Text after `prompt` (characters of the vocabulary), with each step's candidates and attention.
   * Characters outside the vocabulary are an Error naming them.
   * @param {string} prompt
   * @param {GptSampleOptions} [options]
   * @returns {GptSampleResult}
   */
  sample(prompt, options) {
    if (typeof prompt !== 'string') throw new Error('sample(prompt): prompt must be a string');
    return unwrap(this.#owned.get().sample(prompt, options ?? null));
  }

  /**
   * What each head learned, on the held-out poems and a repeated random sequence: four detectors'
   * scores (L, H), with the heads of options.zeroHeads zeroed.
   * @param {{ zeroHeads?: [number, number][] }} [options]
   * @returns {GptHeadScores}
   */
  headScores(options) {
    return unwrap(this.#owned.get().headScores(options ?? null));
  }

  /**
   * The vocabulary, parameter count, step, settings and corpus sizes.
   * @returns {GptInfo}
   */
  info() {
    return unwrap(this.#owned.get().info());
  }

  /**
   * The whole session (corpus, weights, Adam, sampler, step) as .atlb bytes: loadGptSession
   * continues it bit for bit.
   * @returns {Uint8Array}
   */
  save() {
    return unwrap(this.#owned.get().save());
  }

  /** @returns {boolean} */
  get deleted() {
    return this.#owned.deleted;
  }

  /**
   * Frees the wasm memory (safe to call twice).
   * @returns {void}
   */
  delete() {
    this.#owned.delete();
  }
}
