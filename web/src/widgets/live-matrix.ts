// The live mode of <attention-heatmap mechanism="…" text="…">: attention weights of a sentence over
// itself, computed in the worker. Word vectors (and, for self-attention, the Q/K/V projections) are
// drawn from the seed, one vector per distinct word, so a repeated word attends like its twin.
import { NormalSampler } from '../random';
import type { AppState } from '../state';
import type { LabClient, TensorInput } from '../worker/protocol';

export type LiveMechanism = 'dot' | 'scaled-dot' | 'self';
export const MAX_TOKENS = 64;

export interface LiveMatrix {
  tokens: string[];
  /** row-major tokens × tokens, rows sum to 1 */
  weights: Float32Array;
}

export function tokenize(text: string): string[] {
  const tokens = text.split(/\s+/).filter(Boolean);
  if (tokens.length === 0) throw new Error('text has no words');
  if (tokens.length > MAX_TOKENS) throw new Error(`text has ${tokens.length} words; at most ${MAX_TOKENS}`);
  return tokens;
}

function tensor(shape: number[], data: number[]): TensorInput {
  return { shape, data: Float32Array.from(data) };
}

/** Uses self_text, self_d and seed from the state. */
export async function liveWeights(lab: LabClient, state: AppState, mechanism: LiveMechanism): Promise<LiveMatrix> {
  const tokens = tokenize(state.get('self_text'));
  const d = state.get('self_d');
  const sampler = new NormalSampler(state.get('seed'));
  const vectors = new Map<string, number[]>();
  for (const t of tokens) if (!vectors.has(t)) vectors.set(t, sampler.take(d));
  const x = tensor([1, tokens.length, d], tokens.flatMap((t) => vectors.get(t) ?? []));
  if (mechanism === 'self') {
    // nn.Linear-like initialisation, U(-1/√d, 1/√d) approximated by N(0, 1)/√d
    const w = () => tensor([d, d], sampler.take(d * d, 4).map((v) => v / Math.sqrt(d)));
    const b = () => tensor([d], sampler.take(d, 4).map((v) => v / Math.sqrt(d)));
    const r = await lab.selfAttention(x, { wq: w(), bq: b(), wk: w(), bk: b(), wv: w(), bv: b() });
    return { tokens, weights: r.weights.data };
  }
  const r = await lab.attention({ query: x, key: x, value: x, score: mechanism === 'dot' ? 'dot' : 'scaled' });
  return { tokens, weights: r.weights.data };
}
