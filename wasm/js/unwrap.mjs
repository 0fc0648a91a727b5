// The core never throws across the wasm boundary: every binding returns {error} instead (with, for
// a train() that diverged, the steps that completed, and for an error a page words in its own
// language, its code and the numbers it names). Rethrow it here as a JS Error, so the stack trace
// points at the caller and the module stays usable.

/**
 * The result of a binding, or its {error} thrown as an Error (with `completed`, `code` and `details`
 * when the core gives them).
 * @template T
 * @param {T} result
 * @returns {T}
 */
export function unwrap(result) {
  if (result && typeof result === 'object' && 'error' in result && typeof result.error === 'string') {
    /** @type {Error & { completed?: unknown, code?: string, details?: unknown }} */
    const error = new Error(result.error);
    if ('completed' in result && result.completed) error.completed = result.completed;
    if ('code' in result && typeof result.code === 'string') {
      error.code = result.code;
      error.details = 'details' in result ? result.details : undefined;
    }
    throw error;
  }
  return result;
}
