// <attention-heatmap mechanism="self"> (web/src/widgets/live-matrix.ts) and §3.5 (sections/self.ts)
// compute the same weights for the same settings: one tokenizer, one sentence limit, one set of
// seeded inputs (sections/self-tokens.ts), run through the real wasm core.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadAttentionLab } from '../../wasm/js/attention-lab.mjs';
import { loadWeb } from './setup.mjs';

const { liveWeights } = await loadWeb('widgets/live-matrix');
const { selfAttentionInputs, tokenize, SentenceError, MAX_TOKENS } = await loadWeb('sections/self-tokens');
const { AppState } = await loadWeb('state');

const core = await loadAttentionLab({ variant: 'attention' });
// The worker client's methods, answered by the module in this process.
const lab = {
  selfAttention: async (x, params, options) => core.selfAttention(x, params, options),
  attention: async (args) => core.attention(args),
};

/** §3.5's weights for the state's settings, as sections/self.ts computes them. */
function sectionWeights(state) {
  const { x, params } = selfAttentionInputs(tokenize(state.get('self_text')), state.get('self_d'), state.get('seed'));
  return core.selfAttention(x, params).weights.data;
}

test('the self-attention widget shows §3.5\'s weights, on the default settings and others', async () => {
  const cases = [{}, { self_text: 'I love you and you love me', self_d: 8, seed: 3 }, { self_text: '我 爱 我', self_d: 2 }];
  for (const values of cases) {
    const { state } = AppState.fromHash('');
    state.update(values);
    const live = await liveWeights(lab, state, 'self', 'en');
    assert.deepEqual(live.tokens, tokenize(state.get('self_text')));
    assert.deepEqual(Array.from(live.weights), Array.from(sectionWeights(state)), JSON.stringify(values));
  }
});

test('the widget refuses the sentences §3.5 refuses, with its error', async () => {
  const { state } = AppState.fromHash('');
  state.update({ self_text: Array(MAX_TOKENS + 1).fill('词').join(' ') });
  for (const mechanism of ['self', 'dot', 'scaled-dot']) {
    await assert.rejects(liveWeights(lab, state, mechanism, 'en'), (err) => err instanceof SentenceError && err.problem === 'tooMany');
  }
});
