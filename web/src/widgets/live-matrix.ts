// The live mode of <attention-heatmap mechanism="…" text="…">: attention weights of a sentence over
// itself, computed in the worker, from the same inputs as §3.5 (sections/self-tokens.ts): the same
// tokens, per-word seeded embeddings and, for self-attention, Q/K/V projections, so the widget
// and the section show the same weights for the same settings, under the same labels.
import { selfAttentionInputs, tokenize } from '../sections/self-tokens';
import { distinctLabels } from '../sections/token-labels';
import { SHELL_STRINGS, translator, type Lang } from '../i18n';
import type { AppState } from '../state';
import type { LabClient } from '../worker/protocol';

export type LiveMechanism = 'dot' | 'scaled-dot' | 'self';

export interface LiveMatrix {
  tokens: string[];
  /** the tokens as §3.5 names its rows and columns: a repeated word carries its position */
  labels: string[];
  /** row-major tokens × tokens, rows sum to 1 */
  weights: Float32Array;
}

/** Uses self_text, self_d, self_tie and seed from the state; `lang` names repeated words as the page does. */
export async function liveWeights(lab: LabClient, state: AppState, mechanism: LiveMechanism, lang: Lang): Promise<LiveMatrix> {
  const tokens = tokenize(state.get('self_text'));
  const labels = distinctLabels(tokens, translator(lang, SHELL_STRINGS));
  const { x, params } = selfAttentionInputs(tokens, state.get('self_d'), state.get('seed'), state.get('self_tie'));
  if (mechanism === 'self') {
    const r = await lab.selfAttention(x, params);
    return { tokens, labels, weights: r.weights.data };
  }
  const r = await lab.attention({ query: x, key: x, value: x, score: mechanism === 'dot' ? 'dot' : 'scaled' });
  return { tokens, labels, weights: r.weights.data };
}
