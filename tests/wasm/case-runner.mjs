// Runs one case of shared/reference/attention.json through the public JS API, mirroring
// tests/native/case_runner.cpp, so the wasm build is held to exactly the same references.
import { readFileSync } from 'node:fs';
import assert from 'node:assert/strict';

/** The note's five sentence pairs (§3.3), source → reference translation. */
export const NOTE_PAIRS = [
  ['咖哥 喜欢 小冰', 'KaGe likes XiaoBing'],
  ['我 爱 学习 人工智能', 'I love studying AI'],
  ['深度学习 改变 世界', 'DL changed the world'],
  ['自然 语言 处理 很 强大', 'NLP is so powerful'],
  ['神经网络 非常 复杂', 'Neural-Nets are complex'],
];

/** The repository's root folder, for its shared/ files. */
export const REPO_ROOT = new URL('../../', import.meta.url);

export function loadReference(file) {
  return JSON.parse(readFileSync(new URL(`shared/reference/${file}`, REPO_ROOT), 'utf8'));
}

export const tensorOf = (t) => ({ shape: t.shape, data: Float32Array.from(t.data) });

export function mainOutput(kind) {
  if (['linear', 'embedding', 'tanh', 'softmax'].includes(kind)) return 'y';
  if (kind === 'cross_entropy') return 'loss';
  return 'output';
}

const PROJECTIONS = ['wq', 'bq', 'wk', 'bk', 'wv', 'bv', 'wo', 'bo'];

function maskOf(c, inputs) {
  return { causal: !!c.config.causal, keyPadding: inputs.key_padding };
}

function pick(obj, keys) {
  const out = {};
  for (const k of keys) if (obj[k] !== undefined) out[k] = obj[k];
  return out;
}

/** Returns {outputs, grads} keyed like the reference file. `inputs` maps names to tensors. */
export function runCase(lab, c, inputs, gradOutput) {
  const cfg = c.config ?? {};
  switch (c.kind) {
    case 'attention': {
      const r = lab.attention({
        query: inputs.query, key: inputs.key, value: inputs.value,
        // the reference files carry a temperature for every score; only the cosine score has one
        score: cfg.score, ...(cfg.score === 'cosine' ? { temperature: cfg.temperature } : {}),
        mask: maskOf(c, inputs),
        params: pick(inputs, ['w', 'w1', 'w2', 'b', 'v']),
        gradOutput,
      });
      return {
        outputs: pick(r, ['scores', 'scaled', 'weights', 'output']),
        grads: r.grads && { query: r.grads.query, key: r.grads.key, value: r.grads.value, ...r.grads.params },
      };
    }
    case 'self_attention':
    case 'multi_head': {
      const params = pick(inputs, PROJECTIONS);
      const options = { mask: maskOf(c, inputs), gradOutput };
      const r = c.kind === 'self_attention'
        ? lab.selfAttention(inputs.x, params, options)
        : lab.multiHeadAttention(inputs.x, params, cfg.num_heads, options);
      return {
        outputs: pick(r, ['q', 'k', 'v', 'scores', 'scaled', 'weights', 'context', 'output']),
        grads: r.grads && { x: r.grads.x, ...r.grads.params },
      };
    }
    case 'linear': {
      const r = lab.ops.linear(inputs.x, inputs.weight, inputs.bias, { gradOutput });
      return { outputs: { y: r.y }, grads: r.grads };
    }
    case 'embedding': {
      const r = lab.ops.embedding(inputs.ids, inputs.table, { gradOutput });
      return { outputs: { y: r.y }, grads: r.grads };
    }
    case 'tanh':
    case 'softmax': {
      const r = lab.ops[c.kind](inputs.x, { gradOutput });
      return { outputs: { y: r.y }, grads: r.grads };
    }
    case 'cross_entropy': {
      const r = lab.ops.crossEntropy(inputs.logits, inputs.targets, {
        ignoreIndex: cfg.ignore_index,
        gradOutput: gradOutput ? gradOutput.data[0] : undefined,
      });
      return { outputs: { loss: { shape: [], data: Float32Array.of(r.loss) }, probs: r.probs }, grads: r.grads };
    }
    default:
      throw new Error(`unknown case kind ${c.kind}`);
  }
}

/**
 * |a − e| <= rtol·(|e| + max|e|) + absFloor, the same rule as tests/native (see the comment
 * there): relative to the element and to the tensor's scale, with a float32 floor for gradients
 * that are exactly zero in theory (the Seq2Seq references use none). Returns null when close, else
 * a description of the first mismatch.
 */
export function mismatch(actual, expected, rtol, absFloor = 1e-6) {
  if (!actual) return 'missing';
  if (JSON.stringify(actual.shape) !== JSON.stringify(expected.shape)) {
    return `shape [${actual.shape}] vs PyTorch [${expected.shape}]`;
  }
  let scale = 0;
  for (const e of expected.data) scale = Math.max(scale, Math.abs(e));
  for (let i = 0; i < expected.data.length; i++) {
    const a = actual.data[i], e = expected.data[i];
    if (!(Math.abs(a - e) <= rtol * (Math.abs(e) + scale) + absFloor)) {
      return `index ${i}: got ${a}, PyTorch ${e} (rtol ${rtol}, scale ${scale})`;
    }
  }
  return null;
}

// The bare models' references (seq2seq.json, transformer.json) share these.

/** mismatch()'s absolute floor under the native rule (test_seq2seq_util.h expect_close): none. */
export const NO_FLOOR = 0;

/** A reference batch ({B, S, T, src, src_len, tgt_in, tgt_out}) as a Seq2SeqModel batch. */
const batchOf = (b) => ({
  src: { shape: [b.B, b.S], data: b.src },
  srcLengths: b.src_len,
  tgtIn: { shape: [b.B, b.T], data: b.tgt_in },
  tgtOut: { shape: [b.B, b.T], data: b.tgt_out },
});

/** EXPECT_NEAR(loss, e, rtol · e) of the native tests. */
function assertLoss(actual, expected, rtol, what) {
  if (!(Math.abs(actual - expected) <= rtol * expected)) {
    throw new Error(`${what}: got ${actual}, PyTorch ${expected}`);
  }
}

/** Runs fn on a new bare model of `config` and frees the model afterwards, whatever fn does. */
export function withModel(lab, config, fn) {
  return using(lab.createSeq2SeqModel(config), fn);
}

/** Runs fn on a new training session (lab.createSeq2Seq(config)) and frees it afterwards. */
export function withSession(lab, config, fn) {
  return using(lab.createSeq2Seq(config), fn);
}

/**
 * The leak check of a session `model` of `lab` made after `start` (lab.memoryStats() then): after three
 * identical runs of `pass`, the heap in use is the first run's within 1 KB (it wobbles with the last
 * batch's shape, the training workspace being rebuilt per shape; a leak of one byte per call adds more),
 * and so are the live embind handles and the wasm memory's size; deleting the model then gives back
 * all the memory and handles it took.
 */
export function assertPassesLeakNothing(lab, start, model, pass) {
  const ends = [1, 2, 3].map(() => {
    pass();
    return lab.memoryStats();
  });
  for (const end of ends.slice(1)) {
    assert.ok(Math.abs(end.heapUsed - ends[0].heapUsed) < 1024, `heap in use drifted from ${ends[0].heapUsed} to ${end.heapUsed} bytes`);
    assert.equal(end.handles, ends[0].handles, 'live embind handles');
    assert.equal(end.memorySize, ends[0].memorySize, 'wasm memory grew');
  }
  model.delete();
  const end = lab.memoryStats();
  assert.equal(end.heapUsed, start.heapUsed, 'a deleted model gives back all its memory');
  assert.equal(end.handles, start.handles, 'a deleted model leaves no handles');
}

/** fn(handle), then handle.delete(), whatever fn does. */
export function using(handle, fn) {
  try {
    return fn(handle);
  } finally {
    handle.delete();
  }
}

/**
 * Sets every parameter of a bare model from a reference case's `params` ({name: {shape, data}}):
 * the model's names must be exactly the file's (every wasm parameter comes from PyTorch), each
 * shape the file's, and each value must read back bit for bit.
 */
export function loadReferenceParams(model, params) {
  const names = model.paramNames();
  assert.deepEqual(names.map((p) => p.name).sort(), Object.keys(params).sort(), 'parameter names');
  for (const { name, shape } of names) {
    assert.deepEqual(shape, params[name].shape, `shape of ${name}`);
    const data = Float32Array.from(params[name].data);
    model.setParam(name, { shape, data });
    assert.deepEqual(Array.from(model.getParam(name).data), Array.from(data), `${name} round trip`);
  }
}

/**
 * forwardBackward on `batch`: the loss and the logits within rtol of the reference case `c`
 * (|a − e| ≤ rtol · (|e| + max|e|), the native expect_close, no floor), and exactly its set of
 * gradients, each within the same bound. Returns the result for the model's own outputs.
 */
function assertForwardBackward(model, batch, c, rtol) {
  const r = model.forwardBackward(batch);
  assertLoss(r.loss, c.loss, rtol, 'loss');
  assert.equal(mismatch(r.logits, c.logits, rtol, NO_FLOOR), null, 'logits');
  assert.deepEqual(Object.keys(r.grads).sort(), Object.keys(c.grads).sort(), 'set of gradients');
  for (const [name, expected] of Object.entries(c.grads)) {
    assert.equal(mismatch(r.grads[name], expected, rtol, NO_FLOOR), null, `gradient of ${name}`);
  }
  return r;
}

/**
 * The reference case's Adam steps ({lr, beta1, beta2, eps, losses}) from the model's current
 * weights: each step's loss matches torch.optim.Adam's, and the losses move (else matching them
 * would prove nothing about Adam).
 */
function assertAdamLosses(model, batch, { lr, beta1, beta2, eps, losses }, rtol) {
  losses.forEach((expected, i) => {
    assertLoss(model.forwardBackward(batch).loss, expected, rtol, `Adam step ${i}`);
    model.adamStep({ lr, beta1, beta2, eps });
  });
  assert.ok(losses.at(-1) < losses[0] - 0.1, 'the reference losses move');
}

// ---- finite differences of the bare models (as the native gradient checks)

/**
 * `samples` indices of a gradient: the element with the largest analytic gradient (so the sample
 * is never all zeros) plus evenly spaced others; every element when the gradient is that small.
 */
function sampleIndices(grad, samples) {
  const n = grad.length;
  if (n <= samples) return [...Array(n).keys()];
  let top = 0;
  for (let i = 1; i < n; i++) if (Math.abs(grad[i]) > Math.abs(grad[top])) top = i;
  // `samples` distinct evenly spaced indices (n > samples); the top one replaces one of them.
  const picked = new Set([top]);
  for (let k = 0; k < samples && picked.size < samples; k++) picked.add(Math.floor((k * n) / samples));
  return [...picked];
}

/**
 * dL/dw[i] ≈ (L(w + ε) − L(w − ε)) / 2ε for element i of the parameter `name` (of `shape`, whose
 * values `w`, a Float32Array, are rounded to float32 as the native weights are); w and the model
 * are restored afterwards.
 */
function centralDifference(model, batch, { name, shape }, w, i, eps) {
  const saved = w[i];
  w[i] = saved + eps;
  model.setParam(name, { shape, data: w });
  const up = model.loss(batch);
  w[i] = saved - eps;
  model.setParam(name, { shape, data: w });
  const down = model.loss(batch);
  w[i] = saved;
  model.setParam(name, { shape, data: w });
  return (up - down) / (2 * eps);
}

/**
 * The bare model's gradients on `batch` (from forwardBackward) against central differences, one
 * parameter at a time over sampleIndices(its gradient, samples): ‖analytic − numeric‖ < rtol ·
 * ‖numeric‖ + atol. Each sample must carry a gradient, or the comparison would be vacuous: its
 * ‖nonZero.of‖ ('numeric' or 'analytic') above nonZero.above. Returns the largest err / tol.
 */
export function assertGradientsMatch(model, batch, { samples, eps, rtol, atol, nonZero }) {
  const { grads } = model.forwardBackward(batch);
  let worst = 0;
  for (const { name, shape } of model.paramNames()) {
    const w = model.getParam(name).data;
    const analytic = grads[name].data;
    let diff2 = 0, num2 = 0, ana2 = 0;
    for (const i of sampleIndices(analytic, samples)) {
      const numeric = centralDifference(model, batch, { name, shape }, w, i, eps);
      diff2 += (analytic[i] - numeric) ** 2;
      num2 += numeric ** 2;
      ana2 += analytic[i] ** 2;
    }
    const norms = { numeric: Math.sqrt(num2), analytic: Math.sqrt(ana2) };
    assert.ok(norms[nonZero.of] > nonZero.above, `${name} has no gradient on this batch`);
    const err = Math.sqrt(diff2), tol = rtol * norms.numeric + atol;
    worst = Math.max(worst, err / tol);
    assert.ok(err < tol, `${name}: ‖analytic − numeric‖ ${err}, ‖numeric‖ ${norms.numeric}`);
  }
  return worst;
}

/**
 * A bare model of `config` with the weights of the reference case `c`, against the case: loss,
 * logits and every gradient (assertForwardBackward), its attention (checkAttention(r.attention),
 * the model's own layout), loss() and the Adam steps (assertAdamLosses).
 */
export function assertMatchesReference(lab, config, c, rtol, checkAttention) {
  withModel(lab, config, (model) => {
    // Load the state dict by name; every wasm parameter must come from PyTorch.
    loadReferenceParams(model, c.params);
    const batch = batchOf(c.batch);
    const r = assertForwardBackward(model, batch, c, rtol);
    checkAttention(r.attention);
    assertLoss(model.loss(batch), c.loss, rtol, 'loss()');
    // 10 Adam steps from the same weights: the optimiser matches torch.optim.Adam.
    assertAdamLosses(model, batch, c.adam, rtol);
  });
}
