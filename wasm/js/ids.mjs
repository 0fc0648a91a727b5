// Token-id tensors from JS: shared by the ops (attention-lab.mjs) and the bare model (seq2seq-model.mjs).
/** @import { IdsInput } from './types/attention-lab.js' */

/**
 * An id tensor as the bindings read it: their data is a Float32Array or an array of numbers, so an
 * Int32Array (or any other typed array), which the types allow, becomes an array of numbers.
 * @template {IdsInput | null | undefined} T
 * @param {T} t
 * @returns {T}
 */
export function idsOf(t) {
  if (t === null || typeof t !== 'object' || !ArrayBuffer.isView(t.data) || t.data instanceof Float32Array) return t;
  return /** @type {T} */ ({ ...t, data: Array.from(t.data) });
}
