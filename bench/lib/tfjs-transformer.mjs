// The encoder-decoder Transformer of tests/reference/transformer_module.py (nn.Embedding · √d +
// sinusoidal positions, nn.Transformer with dropout 0, batch_first and ReLU, nn.Linear), written in
// plain tf.* ops (no tf.layers) for the TF.js column of the Transformer bench
// (bench/tfjs_transformer.mjs); tests/wasm/tfjs-transformer-peer.test.mjs checks its loss and
// gradients against shared/reference/transformer.json.
//   x = emb_src[src]·√d + pe[:S], y = emb_tgt[tgt_in]·√d + pe[:T]
//   encoder layer, post-norm: x = LN1(x + SA(x)); x = LN2(x + FF(x))
//                  pre-norm:  x = x + SA(LN1(x)); x = x + FF(LN2(x))
//   decoder layer: SA (causal, padded inputs masked), then cross-attention over the memory, then FF
//   a final LayerNorm after each stack (nn.Transformer always has one); logits = out(h)
//   loss: cross-entropy over the targets that are not <pad>
import * as tf from '@tensorflow/tfjs';
import { maskedCrossEntropy, PAD, seededVariables } from './tfjs-wasm.mjs';

const LN_EPS = 1e-5, MASKED = -1e9;

// pe[pos, 2i] = sin(pos / 10000^(2i/d)), pe[pos, 2i+1] = cos(pos / 10000^(2i/d)), in float64 first.
export function positionalTable(length, d) {
  const pe = new Float32Array(length * d);
  for (let pos = 0; pos < length; pos++) {
    for (let i = 0; i < d; i += 2) {
      const angle = pos / Math.pow(10000, i / d);
      pe[pos * d + i] = Math.sin(angle);
      if (i + 1 < d) pe[pos * d + i + 1] = Math.cos(angle);
    }
  }
  return tf.tensor2d(pe, [length, d]);
}

// nn.Transformer's parameters in PyTorch's shapes (weights [out, in]), seeded as the core's
// model_params.cpp: embeddings N(0, 1/d), matrices xavier-uniform, attention biases 0, FF biases
// U(±1/√fan_in), out U(±1/√d), LayerNorm 1 and 0. `named` maps PyTorch's names to the variables.
// recipe: {layers, heads, dModel, dFF, normFirst}.
export function transformerParams(r, vs, vt, seed) {
  const { uniform, normal, constant } = seededVariables(seed);
  const d = r.dModel, f = r.dFF;
  const named = new Map();
  const at = (prefix, tree) => {
    for (const [key, v] of Object.entries(tree)) named.set(`${prefix}.${key}`, v);
    return tree;
  };
  const xavier = (rows, cols) => uniform([rows, cols], Math.sqrt(6 / (rows + cols)));
  const attention = (prefix) => ({
    in: at(prefix, { in_proj_weight: xavier(3 * d, d), in_proj_bias: constant([3 * d], 0) }),
    out: at(`${prefix}.out_proj`, { weight: xavier(d, d), bias: constant([d], 0) }),
  });
  const norm = (prefix) => at(prefix, { weight: constant([d], 1), bias: constant([d], 0) });
  const feedForward = (prefix) => ({
    l1: at(`${prefix}.linear1`, { weight: xavier(f, d), bias: uniform([f], 1 / Math.sqrt(d)) }),
    l2: at(`${prefix}.linear2`, { weight: xavier(d, f), bias: uniform([d], 1 / Math.sqrt(f)) }),
  });
  const srcEmb = at('src_embedding', { weight: normal([vs, d], 1 / Math.sqrt(d)) });
  const tgtEmb = at('tgt_embedding', { weight: normal([vt, d], 1 / Math.sqrt(d)) });
  const enc = Array.from({ length: r.layers }, (_, i) => {
    const p = `transformer.encoder.layers.${i}`;
    return { sa: attention(`${p}.self_attn`), ff: feedForward(p), n1: norm(`${p}.norm1`), n2: norm(`${p}.norm2`) };
  });
  const encNorm = norm('transformer.encoder.norm');
  const dec = Array.from({ length: r.layers }, (_, i) => {
    const p = `transformer.decoder.layers.${i}`;
    return { sa: attention(`${p}.self_attn`), ca: attention(`${p}.multihead_attn`), ff: feedForward(p), n1: norm(`${p}.norm1`), n2: norm(`${p}.norm2`), n3: norm(`${p}.norm3`) };
  });
  const decNorm = norm('transformer.decoder.norm');
  const out = at('out', { weight: uniform([vt, d], 1 / Math.sqrt(d)), bias: uniform([vt], 1 / Math.sqrt(d)) });
  return { srcEmb, tgtEmb, enc, encNorm, dec, decNorm, out, named };
}

// x (N, in) · Wᵀ + b
const linear = (x, l) => tf.add(tf.matMul(x, l.weight, false, true), l.bias);

// LayerNorm over the last axis: (x − mean) / √(var + ε) · g + b
function layerNorm(x, n) {
  const { mean, variance } = tf.moments(x, -1, true);
  return tf.add(tf.mul(tf.mul(tf.sub(x, mean), tf.rsqrt(tf.add(variance, LN_EPS))), n.weight), n.bias);
}

// nn.MultiheadAttention: q from x (B, Tq, d), k and v from mem (B, Tk, d), in_proj split in three;
// bias (B or 1, 1, Tq or 1, Tk) is 0 where a key may be seen and −1e9 where it is masked.
function attention(a, x, mem, bias, heads) {
  const [B, Tq, d] = x.shape, Tk = mem.shape[1], dh = d / heads;
  const [wq, wk, wv] = tf.split(a.in.in_proj_weight, 3, 0), [bq, bk, bv] = tf.split(a.in.in_proj_bias, 3, 0);
  const split = (t, T) => t.reshape([B, T, heads, dh]).transpose([0, 2, 1, 3]); // (B, h, T, dh)
  const q = split(linear(x.reshape([B * Tq, d]), { weight: wq, bias: bq }), Tq);
  const k = split(linear(mem.reshape([B * Tk, d]), { weight: wk, bias: bk }), Tk);
  const v = split(linear(mem.reshape([B * Tk, d]), { weight: wv, bias: bv }), Tk);
  // softmax(q kᵀ / √dh + mask) v, per head
  const weights = tf.softmax(tf.add(tf.mul(tf.matMul(q, k, false, true), 1 / Math.sqrt(dh)), bias));
  const context = tf.matMul(weights, v).transpose([0, 2, 1, 3]).reshape([B * Tq, d]);
  return linear(context, a.out).reshape([B, Tq, d]);
}

// linear2(relu(linear1(x)))
function feedForward(ff, x) {
  const [B, T, d] = x.shape;
  return linear(tf.relu(linear(x.reshape([B * T, d]), ff.l1)), ff.l2).reshape([B, T, d]);
}

// One residual block: post-norm LN(x + f(x)), pre-norm x + f(LN(x)).
const residual = (x, n, normFirst, f) => (normFirst ? tf.add(x, f(layerNorm(x, n))) : layerNorm(tf.add(x, f(x)), n));

// The mean cross-entropy of a batch {src (B, S) int32, srcMask (B, S) 1/0, tgtIn, tgtOut (B, T) int32};
// pe: positionalTable(≥ max(S, T), d).
export function transformerLoss(p, r, pe, batch, vt) {
  const [B, S] = batch.src.shape, T = batch.tgtIn.shape[1], d = r.dModel, h = r.heads;
  const embed = (table, ids, L) => tf.add(tf.mul(tf.gather(table.weight, ids), Math.sqrt(d)), pe.slice([0, 0], [L, d]));
  const srcBias = tf.mul(tf.sub(1, batch.srcMask), MASKED).reshape([B, 1, 1, S]);
  const causal = tf.linalg.bandPart(tf.ones([T, T]), -1, 0); // 1 on and below the diagonal
  const tgtKeep = tf.cast(tf.notEqual(batch.tgtIn, PAD), 'float32').reshape([B, 1, 1, T]);
  const tgtBias = tf.mul(tf.sub(1, tf.mul(causal.reshape([1, 1, T, T]), tgtKeep)), MASKED);
  let x = embed(p.srcEmb, batch.src, S);
  for (const l of p.enc) {
    x = residual(x, l.n1, r.normFirst, (z) => attention(l.sa, z, z, srcBias, h));
    x = residual(x, l.n2, r.normFirst, (z) => feedForward(l.ff, z));
  }
  const memory = layerNorm(x, p.encNorm);
  let y = embed(p.tgtEmb, batch.tgtIn, T);
  for (const l of p.dec) {
    y = residual(y, l.n1, r.normFirst, (z) => attention(l.sa, z, z, tgtBias, h));
    y = residual(y, l.n2, r.normFirst, (z) => attention(l.ca, z, memory, srcBias, h));
    y = residual(y, l.n3, r.normFirst, (z) => feedForward(l.ff, z));
  }
  const logits = linear(layerNorm(y, p.decNorm).reshape([B * T, d]), p.out);
  return maskedCrossEntropy(logits, batch.tgtOut, vt);
}

// One training step: the loss and its gradients (tf.variableGrads), the gradients' global norm
// clipped to clipNorm as clip_grad_norm_ does (0: no clipping), then optimizer (tf.train.adam)
// applies them. Returns the loss before the step (a scalar tensor for the caller to read).
export function transformerStep(optimizer, p, r, pe, batch, vt, clipNorm) {
  return tf.tidy(() => {
    const { value, grads } = tf.variableGrads(() => transformerLoss(p, r, pe, batch, vt), [...p.named.values()]);
    let scaled = grads;
    if (clipNorm > 0) {
      // g ·= min(1, clipNorm / (‖g‖ + 1e-6)), ‖g‖ over every gradient together
      const norm = tf.sqrt(tf.addN(Object.values(grads).map((g) => tf.sum(tf.square(g)))));
      const coef = tf.minimum(1, tf.div(clipNorm, tf.add(norm, 1e-6)));
      scaled = Object.fromEntries(Object.entries(grads).map(([name, g]) => [name, tf.mul(g, coef)]));
    }
    optimizer.applyGradients(scaled);
    return value;
  });
}
