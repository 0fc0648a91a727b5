// An embind object that a JS wrapper owns (a Seq2Seq session, a bare Seq2Seq model): wasm memory
// is not garbage-collected, so the wrapper frees the C++ object in delete() (safe twice), and any
// use after that throws an Error naming what was deleted. OwnedTranslator: what the translators
// (Seq2Seq, ImportedSeq2Seq) do the same way on top of that.
import { unwrap } from './unwrap.mjs';
/** @import { TranslateOptions, TranslateResult } from './types/seq2seq.js' */

/**
 * An embind object with a delete() (its methods are C++; the wrappers name their results' types).
 * @typedef {{ delete(): void, readonly [method: string]: any }} EmbindHandle
 */

export class OwnedHandle {
  /** @type {EmbindHandle | null} */
  #handle;
  #what;

  /**
   * @param {EmbindHandle} handle
   * @param {string} what how errors name it ('Seq2Seq model')
   */
  constructor(handle, what) {
    this.#handle = handle;
    this.#what = what;
  }

  /**
   * The embind object; throws once deleted.
   * @returns {EmbindHandle}
   */
  get() {
    if (!this.#handle) throw new Error(`this ${this.#what} has been deleted`);
    return this.#handle;
  }

  /** @returns {boolean} */
  get deleted() {
    return !this.#handle;
  }

  /** @returns {void} */
  delete() {
    if (this.#handle) {
      this.#handle.delete();
      this.#handle = null;
    }
  }
}

/** The key of OwnedTranslator's live embind handle, for its subclasses (not a public name). */
export const LIVE = Symbol('live handle');

/**
 * A translator wrapper (Seq2Seq in seq2seq.mjs, ImportedSeq2Seq in safetensors.mjs): owns its
 * embind handle, and passes translate, info and the two vocabularies through, rethrowing the
 * core's {error} as an Error. What the vocabularies list is the subclass's to say.
 * @template Info what info() returns
 */
export class OwnedTranslator {
  #owned;

  /**
   * @internal
   * @param {EmbindHandle} handle
   * @param {string} what
   */
  constructor(handle, what) {
    this.#owned = new OwnedHandle(handle, what);
  }

  /**
   * The embind handle; throws once deleted.
   * @internal
   * @returns {EmbindHandle}
   */
  [LIVE]() {
    return this.#owned.get();
  }

  /**
   * Greedy decoding, or beam search with {beam: width}; with the per-step trace. With
   * {interventions: [{step, kind, source?, weights?, token?}]} (greedy only): the intervened
   * translation, and in `intervention` the plain one beside it and which steps changed.
   * @param {string} text
   * @param {TranslateOptions} [options]
   * @returns {TranslateResult}
   */
  translate(text, options) {
    if (typeof text !== 'string') throw new Error('translate(text): text must be a string');
    return unwrap(this[LIVE]().translate(text, options ?? null));
  }

  /**
   * The model's settings, sizes and vocabulary sizes.
   * @returns {Info}
   */
  info() {
    return unwrap(this[LIVE]().info());
  }

  /**
   * The tokens translate() knows, in id order. A Seq2Seq lists them without <pad>, <sos>, <eos> and
   * <unk> (token i has id i + 4): words for the note's task and zh-en, single characters for
   * dates/reverse/copy. A model read from .safetensors lists every token, as the file does.
   * @returns {string[]}
   */
  sourceVocabulary() {
    return unwrap(this[LIVE]().sourceVocabulary());
  }

  /**
   * The tokens the model can write, in id order (a Seq2Seq's without the four reserved tokens).
   * @returns {string[]}
   */
  targetVocabulary() {
    return unwrap(this[LIVE]().targetVocabulary());
  }

  /** @returns {boolean} */
  get deleted() {
    return this.#owned.deleted;
  }

  /**
   * Frees the wasm memory; later calls throw. Safe to call twice.
   * @returns {void}
   */
  delete() {
    this.#owned.delete();
  }
}
