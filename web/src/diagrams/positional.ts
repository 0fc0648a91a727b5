// The numbers of the positional-encoding figure: the sinusoid table the Transformer adds to its
// embeddings (the wasm core's transformer/blocks.cpp positional_encoding, the same formula), and
// one self-attention over a sentence's words, with and without those positions. Self-attention
// alone sees a set of words: two equal words get equal outputs wherever they stand, which is why
// the Transformer adds positions.
import { deriveSeed, uniformSamples } from '../random';

/** PE[pos][2i] = sin(pos / 10000^(2i/d)), PE[pos][2i+1] = cos(pos / 10000^(2i/d)); row-major n × d. */
export function sinusoidTable(n: number, d: number): Float64Array {
  const pe = new Float64Array(n * d);
  for (let pos = 0; pos < n; pos++) {
    for (let i = 0; i < d; i += 2) {
      const angle = pos / 10000 ** (i / d);
      pe[pos * d + i] = Math.sin(angle);
      if (i + 1 < d) pe[pos * d + i + 1] = Math.cos(angle);
    }
  }
  return pe;
}

type Matrix = number[][];

function matmul(a: Matrix, b: Matrix): Matrix {
  return a.map((row) => b[0].map((_, j) => row.reduce((s, v, k) => s + v * b[k][j], 0)));
}

function square(values: ArrayLike<number>, d: number): Matrix {
  return Array.from({ length: d }, (_, r) => Array.from({ length: d }, (_, c) => values[r * d + c]));
}

/** softmax(X W_Q (X W_K)ᵀ / √d) X W_V, one row per word. */
export function selfAttention(x: Matrix, wq: Matrix, wk: Matrix, wv: Matrix): { output: Matrix; weights: Matrix } {
  const q = matmul(x, wq);
  const k = matmul(x, wk);
  const v = matmul(x, wv);
  const scale = Math.sqrt(wq[0].length);
  const weights = q.map((qi) => {
    const scores = k.map((kj) => qi.reduce((s, val, c) => s + val * kj[c], 0) / scale);
    const max = Math.max(...scores);
    const e = scores.map((s) => Math.exp(s - max));
    const sum = e.reduce((a, b) => a + b, 0);
    return e.map((val) => val / sum);
  });
  return { output: weights.map((w) => v[0].map((_, c) => w.reduce((s, wj, j) => s + wj * v[j][c], 0))), weights };
}

export interface PositionDemo {
  /** each word's embedding (positions added when asked) */
  input: Matrix;
  output: Matrix;
  weights: Matrix;
}

/**
 * Self-attention over `words` with random (untrained) embeddings and projections drawn from
 * `seed`: one embedding per distinct word, so equal words have equal embeddings; with `positions`
 * the sinusoid table's rows are added first.
 */
export function positionDemo(words: readonly string[], d: number, seed: number, positions: boolean): PositionDemo {
  const pe = sinusoidTable(words.length, d);
  const input = words.map((w, pos) => {
    const e = uniformSamples(deriveSeed(seed, `position-embedding:${w}`), d, 1);
    return Array.from(e, (v, c) => v + (positions ? pe[pos * d + c] : 0));
  });
  // Xavier-uniform projections (as nn.Linear is often initialised for attention)
  const bound = Math.sqrt(3 / d);
  const w = (label: string) => square(uniformSamples(deriveSeed(seed, label), d * d, bound), d);
  const { output, weights } = selfAttention(input, w('position-wq'), w('position-wk'), w('position-wv'));
  return { input, output, weights };
}

/** The largest absolute difference between two rows. */
export function rowDistance(a: readonly number[], b: readonly number[]): number {
  return a.reduce((m, v, i) => Math.max(m, Math.abs(v - b[i])), 0);
}
