// An embind object that a JS wrapper owns (a Seq2Seq session, a bare Seq2Seq model): wasm memory
// is not garbage-collected, so the wrapper frees the C++ object in delete() (safe twice), and any
// use after that throws an Error naming what was deleted. OwnedTranslator: what the translators
// (Seq2Seq, ImportedSeq2Seq) do the same way on top of that.
import { unwrap } from './unwrap.mjs';

export class OwnedHandle {
  #handle;
  #what;

  constructor(handle, what) {
    this.#handle = handle;
    this.#what = what;
  }

  /** The embind object; throws once deleted. */
  get() {
    if (!this.#handle) throw new Error(`this ${this.#what} has been deleted`);
    return this.#handle;
  }

  get deleted() {
    return !this.#handle;
  }

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
 */
export class OwnedTranslator {
  #owned;

  constructor(handle, what) {
    this.#owned = new OwnedHandle(handle, what);
  }

  /** The embind handle; throws once deleted. */
  [LIVE]() {
    return this.#owned.get();
  }

  /**
   * Greedy decoding, or beam search with {beam: width}; with the per-step trace. With
   * {interventions: [{step, kind, source?, weights?, token?}]} (greedy only): the intervened
   * translation, and in `intervention` the plain one beside it and which steps changed.
   */
  translate(text, options) {
    if (typeof text !== 'string') throw new Error('translate(text): text must be a string');
    return unwrap(this[LIVE]().translate(text, options ?? null));
  }

  info() {
    return unwrap(this[LIVE]().info());
  }

  sourceVocabulary() {
    return unwrap(this[LIVE]().sourceVocabulary());
  }

  targetVocabulary() {
    return unwrap(this[LIVE]().targetVocabulary());
  }

  get deleted() {
    return this.#owned.deleted;
  }

  /** Frees the C++ object. Safe to call twice. */
  delete() {
    this.#owned.delete();
  }
}
