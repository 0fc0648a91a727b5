// Sentences → tokens → seeded embeddings, and seeded nn.Linear parameters: the inputs of the
// self-attention (§3.5) and multi-head (§3.6) sections. Everything is a pure function of
// (seed, text, d), so a permalink reloads to the same numbers.
import { deriveSeed, NormalSampler, uniformSamples } from '../random';
import type { TensorInput } from '../worker/protocol';

/** Longest sentence the views draw legibly (token × token heatmaps). */
export const MAX_TOKENS = 16;

/** Why a sentence cannot be used; the section words it in the page's language. */
export class SentenceError extends Error {
  constructor(
    readonly problem: 'empty' | 'tooMany',
    readonly count: number,
  ) {
    super(problem === 'empty' ? 'the sentence is empty' : `${count} tokens: at most ${MAX_TOKENS}`);
    this.name = 'SentenceError';
  }
}

/** Words separated by whitespace (the note's Chinese sentences are written that way: "咖哥 喜欢 小冰"). */
export function tokenize(text: string): string[] {
  const tokens = text.trim().split(/\s+/u).filter((w) => w !== '');
  if (tokens.length === 0) throw new SentenceError('empty', 0);
  if (tokens.length > MAX_TOKENS) throw new SentenceError('tooMany', tokens.length);
  return tokens;
}

/**
 * One standard-normal d-vector per token, drawn from a stream keyed by (seed, word): the same word
 * gets the same vector wherever it occurs (an embedding table lookup, without a vocabulary).
 */
export function embed(tokens: readonly string[], d: number, seed: number): TensorInput {
  const data = new Float32Array(tokens.length * d);
  tokens.forEach((word, t) => {
    const normal = new NormalSampler(deriveSeed(seed, `embedding:${word}`));
    for (let j = 0; j < d; j++) data[t * d + j] = normal.next();
  });
  return { shape: [1, tokens.length, d], data };
}

/** nn.Linear(d, d) with PyTorch's default init: weight and bias uniform on ±1/√d. */
export function linearParams(seed: number, label: string, d: number): { weight: TensorInput; bias: TensorInput } {
  const bound = 1 / Math.sqrt(d);
  return {
    weight: { shape: [d, d], data: uniformSamples(deriveSeed(seed, `${label}.weight:${d}`), d * d, bound) },
    bias: { shape: [d], data: uniformSamples(deriveSeed(seed, `${label}.bias:${d}`), d, bound) },
  };
}

/**
 * The weights and biases of several nn.Linear(d, d) layers, named as the core expects: for
 * ['q', 'k'] → { wq, bq, wk, bk }. `scope` keeps the sections' parameters independent.
 */
export function projectionParams<L extends string>(
  seed: number,
  scope: string,
  d: number,
  layers: readonly L[],
): Record<`w${L}` | `b${L}`, TensorInput> {
  const out: Record<string, TensorInput> = {};
  for (const layer of layers) {
    const { weight, bias } = linearParams(seed, `${scope}.${layer}`, d);
    out[`w${layer}`] = weight;
    out[`b${layer}`] = bias;
  }
  return out as Record<`w${L}` | `b${L}`, TensorInput>;
}

/**
 * §3.5's self-attention inputs for a sentence: its embeddings x and the Q, K, V projections, all
 * from (seed, d). §3.5 and <attention-heatmap mechanism="self"> both call the core with these, so
 * the same settings show the same weights in both. `tied`: the keys go through the query's map
 * (W_K = W_Q, b_K = b_Q), which makes the scores symmetric (the section's argument for three maps).
 */
export function selfAttentionInputs(tokens: readonly string[], d: number, seed: number, tied: boolean) {
  const params = projectionParams(seed, 'self', d, ['q', 'k', 'v'] as const);
  return { x: embed(tokens, d, seed), params: tied ? { ...params, wk: params.wq, bk: params.bq } : params };
}

/** The feature labels d1 … dN. */
export function featureLabels(count: number, prefix = 'd'): string[] {
  return Array.from({ length: count }, (_, i) => `${prefix}${i + 1}`);
}

/** Rows [from, to) of a row-major matrix with `cols` columns. */
export function rowOf(values: ArrayLike<number>, cols: number, row: number): number[] {
  return Array.from({ length: cols }, (_, j) => values[row * cols + j]);
}
