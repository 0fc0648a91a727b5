// attention() for small calls without embind's conversion of the argument object: the query, key
// and value are written straight into buffers in wasm memory (HEAPF32) and only the outputs asked
// for are copied back (the bindings' attentionStage / attentionRunStaged, attention_bindings.cpp).
// For a 16 × 16 call, reading the object property by property through embind was most of the
// call's time. A call takes this path only when nothing about it needs the object path's checks
// or options: three {shape, data: Float32Array} tensors of rank 3 whose data lengths match their
// shapes, a score without weights, no gradOutput, no keyPadding, known option names and outputs.
// Everything else (and every malformed call, so its error message is the object path's) returns
// undefined here and goes through core.attention. Both paths run the same C++ attention_forward.
/** @import { Core } from './types/core.js' */
/** @import { AttentionArgs, AttentionResult, Tensor } from './types/attention-lab.js' */

const OUTPUTS = ['score', 'scores', 'scaled', 'weights', 'output']; // kAttentionOutputs' order
const ALL_OUTPUTS = (1 << OUTPUTS.length) - 1;
const KEYS = new Set(['query', 'key', 'value', 'score', 'temperature', 'mask', 'outputs', 'params', 'gradOutput']);
const SCORES = new Set(['scaled', 'dot', 'cosine']); // the scores without weights

/** @param {unknown} v */
const absent = (v) => v === undefined || v === null;

/**
 * [B, rows, cols] of a rank-3 {shape, data: Float32Array} whose data length matches, or null.
 * @param {unknown} t
 * @returns {number[] | null}
 */
function dims(t) {
  if (typeof t !== 'object' || t === null) return null;
  const { shape: s, data } = /** @type {{ shape?: unknown, data?: unknown }} */ (t);
  if (!(data instanceof Float32Array)) return null;
  if (!Array.isArray(s) || s.length !== 3 || !s.every((d) => Number.isInteger(d) && d >= 1)) return null;
  return s[0] * s[1] * s[2] === data.length ? s : null;
}

/**
 * Bits of OUTPUTS for an `outputs` option (absent: all), or -1 for anything the object path must judge.
 * @param {unknown} outputs
 */
function outputBits(outputs) {
  if (absent(outputs)) return ALL_OUTPUTS;
  if (!Array.isArray(outputs)) return -1;
  let bits = 0;
  for (const name of outputs) {
    const bit = OUTPUTS.indexOf(name);
    if (bit < 0) return -1;
    bits |= 1 << bit;
  }
  return bits;
}

/**
 * causal (false when absent) when the mask is absent or {causal}, else null.
 * @param {unknown} mask
 * @returns {boolean | null}
 */
function causalOnly(mask) {
  if (absent(mask)) return false;
  if (typeof mask !== 'object') return null;
  const m = /** @type {Record<string, unknown>} */ (mask);
  if (!Object.keys(m).every((k) => k === 'causal' || (k === 'keyPadding' && absent(m[k])))) return null;
  return absent(m.causal) ? false : typeof m.causal === 'boolean' ? m.causal : null;
}

/**
 * A function (args) => result | undefined for the core's staged bindings; undefined when the call
 * must take the object path. The result is the object path's, field for field.
 * @param {Core} core
 * @returns {(args: AttentionArgs | null | undefined) => Partial<AttentionResult> | { error: string } | undefined}
 */
export function stagedAttention(core) {
  // a build without the staged bindings (or a loader without the heap views) takes the object path
  if (typeof core.attentionStage !== 'function' || !core.HEAPF32 || !core.HEAPU32) return () => undefined;
  return (args) => {
    if (typeof args !== 'object' || args === null) return undefined;
    for (const k of Object.keys(args)) if (!KEYS.has(k)) return undefined;
    const data = (/** @type {Tensor} */ t) => t.data;
    if (!absent(args.params) || !absent(args.gradOutput)) return undefined;
    const score = absent(args.score) ? 'scaled' : args.score;
    if (!SCORES.has(score)) return undefined;
    const temperature = absent(args.temperature) ? 1 : args.temperature;
    if (typeof temperature !== 'number') return undefined;
    const causal = causalOnly(args.mask);
    const outputs = outputBits(args.outputs);
    const q = dims(args.query), k = dims(args.key), v = dims(args.value);
    if (causal === null || outputs < 0 || !q || !k || !v) return undefined;
    const [B, N, D] = q, M = k[1];
    // shapes that attention_forward rejects (with its message) go through the object path too
    if (k[0] !== B || v[0] !== B || v[1] !== M) return undefined;
    const inputs = core.attentionStage(B, N, M, D, k[2], v[2]);
    if (inputs === 0) return undefined; // too large for the staged buffers
    let heap = core.HEAPU32;
    // (dims() has seen that each data is a Float32Array)
    core.HEAPF32.set(data(/** @type {Tensor} */ (args.query)), heap[inputs >> 2] >> 2);
    core.HEAPF32.set(data(/** @type {Tensor} */ (args.key)), heap[(inputs >> 2) + 1] >> 2);
    core.HEAPF32.set(data(/** @type {Tensor} */ (args.value)), heap[(inputs >> 2) + 2] >> 2);
    const addresses = core.attentionRunStaged(score, temperature, causal, outputs);
    if (typeof addresses !== 'number') return addresses; // {error}
    heap = core.HEAPU32; // (the call may have grown memory: fresh views)
    const floats = core.HEAPF32;
    /** @type {(i: number, shape: number[]) => Tensor} */
    const copy = (i, shape) => {
      const at = heap[(addresses >> 2) + i] >> 2;
      return { shape, data: floats.slice(at, at + shape[0] * shape[1] * shape[2]) };
    };
    /** @type {Partial<AttentionResult>} */
    const out = {};
    if (outputs & 1) out.score = score;
    if (outputs & 2) out.scores = copy(0, [B, N, M]);
    if (outputs & 4) out.scaled = copy(1, [B, N, M]);
    if (outputs & 8) out.weights = copy(2, [B, N, M]);
    if (outputs & 16) out.output = copy(3, [B, N, v[2]]);
    return out;
  };
}
