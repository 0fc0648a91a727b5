// An embind object that a JS wrapper owns (a Seq2Seq session, a bare Seq2Seq model): wasm memory
// is not garbage-collected, so the wrapper frees the C++ object in delete() (safe twice), and any
// use after that throws an Error naming what was deleted.
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
