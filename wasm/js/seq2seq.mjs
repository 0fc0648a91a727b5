// The Seq2Seq handle of the `attention-lab` package: a JS class around one embind Seq2SeqSession
// (wasm/bindings/seq2seq_bindings.cpp). The wrapper OWNS the C++ object: call delete() once you
// are done with it (wasm memory is not garbage-collected); any call after delete() throws.
// Every method rethrows the core's {error} as a JS Error; a failed call leaves the session usable.
// Types: the JSDoc here; the configs and results in types/seq2seq.d.ts.

import { createByArch, refuseIdleAttributionSteps } from './arch.mjs';
import { LIVE, OwnedTranslator } from './owned-handle.mjs';
import { unwrap } from './unwrap.mjs';
/** @import { Core } from './types/core.js' */
/** @import { EmbindHandle } from './owned-handle.mjs' */
/**
 * @import { AttentionTimeline, AttributionOptions, EvaluateOptions, EvaluateResult, HeldOutExample, SaveOptions,
 *   Seq2SeqConfig, Seq2SeqInfo, StateDictNames, TimelineOptions, TrainResult, TransformerSeq2SeqConfig,
 *   TranslationAttribution } from './types/seq2seq.js'
 */

/**
 * A model file's bytes as a Uint8Array (a view of the same memory where it can).
 * @param {Uint8Array | ArrayBuffer | ArrayBufferView} bytes
 * @returns {Uint8Array}
 */
export function asBytes(bytes) {
  if (bytes instanceof Uint8Array) return bytes;
  if (bytes instanceof ArrayBuffer) return new Uint8Array(bytes);
  if (ArrayBuffer.isView(bytes)) return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  throw new Error('loadSeq2Seq() needs the bytes of a .atlb file (or a .safetensors one) as a Uint8Array or ArrayBuffer');
}

/**
 * The options of save({ format: 'safetensors', names }): names is 'project' (out.weight) or 'book'.
 * @param {{ names?: StateDictNames }} options
 * @returns {StateDictNames}
 */
export function safetensorsNames(options) {
  const names = options.names ?? 'project';
  if (names !== 'project' && names !== 'book') {
    throw new Error(`save(): names must be 'project' (out.weight) or 'book' (decoder.out.weight), not ${JSON.stringify(String(names))}`);
  }
  return names;
}

/**
 * One model and its task, living in wasm memory. The JS object owns it: call delete() when done.
 * Every method throws a JS Error on bad input; the model stays usable afterwards (translate() a
 * SentenceTooLongError for a sentence over `info().maxSourceTokens`).
 * @extends {OwnedTranslator<Seq2SeqInfo>}
 */
export class Seq2Seq extends OwnedTranslator {
  #core;

  /**
   * Use AttentionLab.createSeq2Seq / loadSeq2Seq. Takes ownership of `handle`.
   * @internal
   * @param {Core} core
   * @param {EmbindHandle} handle
   */
  constructor(core, handle) {
    super(handle, 'Seq2Seq model');
    this.#core = core;
  }

  /**
   * config.arch picks the model: 'rnn' (the default: the recurrent translator) or 'transformer'
   * (wasm/bindings/transformer_session_bindings.cpp, whose handle has the same methods and
   * result fields, plus every layer's and head's attention in a translation's trace).
   * @internal
   * @param {Core} core
   * @param {Seq2SeqConfig | TransformerSeq2SeqConfig} config
   * @returns {Seq2Seq}
   */
  static create(core, config) {
    return new Seq2Seq(core, createByArch(core, config, { recurrent: 'createSeq2Seq', transformer: 'createTransformerSession' }));
  }

  /**
   * A recurrent or a Transformer session, whichever the file holds.
   * @internal
   * @param {Core} core
   * @param {Uint8Array | ArrayBuffer} bytes
   * @returns {Seq2Seq}
   */
  static load(core, bytes) {
    const data = asBytes(bytes);
    // isTransformerFile gives {error} for bytes that are no model file: the Seq2Seq loader then
    // reports what is wrong with them.
    if (typeof core.isTransformerFile === 'function' && core.isTransformerFile(data) === true) {
      return new Seq2Seq(core, unwrap(core.loadTransformer(data)));
    }
    return new Seq2Seq(core, unwrap(core.loadSeq2Seq(data)));
  }

  /**
   * 'transformer' only for a session loadSeq2Seq() read from a Transformer's file: then it is a
   * TransformerSeq2Seq.
   * @returns {'rnn' | 'transformer'}
   */
  get arch() {
    return this.#isTransformer() ? 'transformer' : 'rnn';
  }

  #isTransformer() {
    const T = this.#core.TransformerSession;
    return typeof T === 'function' && this[LIVE]() instanceof T;
  }

  /**
   * Runs `steps` Adam steps: the loss and teacher-forced token accuracy of each, and the step
   * count. If training diverges it throws an Error whose `completed` holds the steps that did
   * complete (a TrainDivergedError); the session keeps the state after the last of them.
   * @param {number} steps 1–100000
   * @returns {TrainResult}
   */
  train(steps) {
    if (typeof steps !== 'number') throw new Error('train(steps): steps must be a number');
    return unwrap(this[LIVE]().train(steps));
  }

  /**
   * Loss, token accuracy (teacher-forced), exact match (greedy, overall and by source length) and
   * alignment accuracy (attention argmax on an aligned source word) on the task's held-out set,
   * or with {length, count?, seed?} on fresh reverse/copy strings of exactly that length.
   * @param {EvaluateOptions} [options]
   * @returns {EvaluateResult}
   */
  evaluate(options) {
    return unwrap(this[LIVE]().evaluate(options ?? null));
  }

  /**
   * Records the attention of the probe sentence now and every `every` training steps while this
   * model trains ({every = 10, capacity = 200}: at most capacity frames, thinned evenly when full).
   * The full module only: the widget modules throw.
   * @param {string} probe
   * @param {TimelineOptions} [options]
   * @returns {void}
   */
  recordTimeline(probe, options) {
    if (typeof probe !== 'string') throw new Error('recordTimeline(probe): probe must be a string');
    unwrap(this.#why('timeline', 'RecordTimeline')(this[LIVE](), probe, options ?? null));
  }

  /**
   * Stops recording; the frames stay.
   * @returns {void}
   */
  stopTimeline() {
    unwrap(this.#why('timeline', 'StopTimeline')(this[LIVE]()));
  }

  /**
   * The timeline's frames (copies): {probe, every, capacity, startStep, recording, frames}. A
   * Transformer's frames hold each step's rollout onto the source (translate()'s `attention`).
   * @returns {AttentionTimeline}
   */
  timeline() {
    return unwrap(this.#why('timeline', 'Timeline')(this[LIVE]()));
  }

  /**
   * The timeline as one JSON text (typed arrays as plain arrays).
   * @returns {string}
   */
  exportTimeline() {
    return JSON.stringify(this.timeline(), (_k, v) => (ArrayBuffer.isView(v) ? Array.from(/** @type {Float32Array} */ (v)) : v));
  }

  /**
   * The core function `<seq2seq|transformer><name>` of the why bindings (seq2seq_why_bindings.cpp,
   * transformer_why_bindings.cpp) for this session's architecture; the widget modules have none.
   * @param {string} what the caller, as its Error names it
   * @param {string} name
   * @returns {(...args: unknown[]) => any}
   */
  #why(what, name) {
    const arch = this.#isTransformer() ? 'transformer' : 'seq2seq';
    const fn = this.#core[arch + name];
    if (typeof fn !== 'function') {
      throw new Error(`${what}: this build (the '${arch}' module for widgets) has none; the full module has`);
    }
    return fn;
  }

  /**
   * Each word of the greedy translation attributed to the source tokens by gradient × input or
   * integrated gradients ({method, steps}), beside its attention and their rank correlation (a
   * Transformer's attention: the rollout onto the source). The full module only: the widget
   * modules throw.
   * @param {string} text
   * @param {AttributionOptions} [options]
   * @returns {TranslationAttribution}
   */
  attribution(text, options) {
    if (typeof text !== 'string') throw new Error('attribution(text): text must be a string');
    refuseIdleAttributionSteps(options);
    return unwrap(this.#why('attribution()', 'Attribution')(this[LIVE](), text, options ?? null));
  }

  /**
   * The session as .atlb bytes (a copy): loading them resumes training bit for bit. With
   * { format: 'safetensors', names?: 'project' | 'book' }: the weights as a PyTorch state dict
   * with the config and vocabularies in its metadata (docs/safetensors.md), under the project's
   * state-dict names (out.weight) or, with names: 'book', the book's (decoder.out.weight). Throws
   * in the widget builds, which have no model files (docs/model-format.md).
   * @param {SaveOptions} [options]
   * @returns {Uint8Array}
   */
  save(options) {
    const handle = this[LIVE]();
    // The widget builds ('seq2seq', 'transformer') have no model files; their models cannot be saved.
    if (typeof this.#core[this.#isTransformer() ? 'saveTransformer' : 'saveSeq2Seq'] !== 'function') {
      throw new Error("save(): this build has no model files; load the 'full' variant to save models");
    }
    const o = options ?? {};
    if (typeof o !== 'object') throw new Error('save(options): options must be an object');
    const format = o.format ?? 'atlb';
    if (format === 'safetensors') {
      if (this.#isTransformer()) {
        if ((o.names ?? 'project') !== 'project') {
          throw new Error("save(): a Transformer has one naming, the reference module's (names 'project'); 'book' is the book's recurrent translator");
        }
        return unwrap(this.#core.exportTransformerSafetensors(handle));
      }
      return unwrap(this.#core.exportSeq2SeqSafetensors(handle, safetensorsNames(o)));
    }
    if (format !== 'atlb') {
      throw new Error(`save(): unknown format ${JSON.stringify(String(format))} (expected 'atlb' or 'safetensors')`);
    }
    return unwrap(this.#isTransformer() ? this.#core.saveTransformer(handle) : this.#core.saveSeq2Seq(handle));
  }

  /**
   * save({ ...options, format: 'safetensors' })
   * @param {{ names?: StateDictNames }} [options]
   * @returns {Uint8Array}
   */
  exportSafetensors(options) {
    return this.save({ ...(options ?? {}), format: 'safetensors' });
  }

  // translate, info, the vocabularies and delete: OwnedTranslator's. The vocabularies list the
  // tokens a user can type (source) and the model can write (target), in id order, without
  // <pad>/<sos>/<eos>/<unk>.

  /**
   * The first `count` held-out examples (the note: its five pairs), with each target token's
   * aligned source token indices (empty for function words; [] overall for tasks without), in
   * evaluate()'s order.
   * @param {number} count ≥ 1
   * @returns {HeldOutExample[]}
   */
  heldOut(count) {
    if (typeof count !== 'number') throw new Error('heldOut(count): count must be a number');
    return unwrap(this[LIVE]().heldOut(count));
  }
}
