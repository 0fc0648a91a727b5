// The live mode of <attention-heatmap mechanism="…" text="…">: attention weights of a sentence over
// itself, computed in the worker, from the same inputs as §3.5 (sections/self-tokens.ts): the same
// tokens, per-word seeded embeddings and, for self-attention, Q/K/V projections, so the widget
// and the section show the same weights for the same settings.
import { selfAttentionInputs, tokenize } from '../sections/self-tokens';
import type { AppState } from '../state';
import type { LabClient } from '../worker/protocol';

export type LiveMechanism = 'dot' | 'scaled-dot' | 'self';

export interface LiveMatrix {
  tokens: string[];
  /** row-major tokens × tokens, rows sum to 1 */
  weights: Float32Array;
}

/** Uses self_text, self_d, self_tie and seed from the state. */
export async function liveWeights(lab: LabClient, state: AppState, mechanism: LiveMechanism): Promise<LiveMatrix> {
  const tokens = tokenize(state.get('self_text'));
  const { x, params } = selfAttentionInputs(tokens, state.get('self_d'), state.get('seed'), state.get('self_tie'));
  if (mechanism === 'self') {
    const r = await lab.selfAttention(x, params);
    return { tokens, weights: r.weights.data };
  }
  const r = await lab.attention({ query: x, key: x, value: x, score: mechanism === 'dot' ? 'dot' : 'scaled' });
  return { tokens, weights: r.weights.data };
}
