// Runs one case of shared/reference/attention.json through the public JS API, mirroring
// tests/native/case_runner.cpp, so the wasm build is held to exactly the same references.
import { readFileSync } from 'node:fs';

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
        score: cfg.score, temperature: cfg.temperature,
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

/** A reference batch ({B, S, T, src, src_len, tgt_in, tgt_out}) as a Seq2SeqModel batch. */
export const batchOf = (b) => ({
  src: { shape: [b.B, b.S], data: b.src },
  srcLengths: b.src_len,
  tgtIn: { shape: [b.B, b.T], data: b.tgt_in },
  tgtOut: { shape: [b.B, b.T], data: b.tgt_out },
});

/** EXPECT_NEAR(loss, e, rtol · e) of the native tests. */
export function assertLoss(actual, expected, rtol, what) {
  if (!(Math.abs(actual - expected) <= rtol * expected)) {
    throw new Error(`${what}: got ${actual}, PyTorch ${expected}`);
  }
}

/** Runs fn on a new bare model of `config` and frees the model afterwards, whatever fn does. */
export function withModel(lab, config, fn) {
  const model = lab.createSeq2SeqModel(config);
  try {
    return fn(model);
  } finally {
    model.delete();
  }
}
