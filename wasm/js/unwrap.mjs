// The core never throws across the wasm boundary: every binding returns {error} instead (with, for
// a train() that diverged, the steps that completed, and for an error a page words in its own
// language, its code and the numbers it names). Rethrow it here as a JS Error, so the stack trace
// points at the caller and the module stays usable.
export function unwrap(result) {
  if (result && typeof result.error === 'string') {
    const error = new Error(result.error);
    if (result.completed) error.completed = result.completed;
    if (typeof result.code === 'string') {
      error.code = result.code;
      error.details = result.details;
    }
    throw error;
  }
  return result;
}
