// A decoding option reaches every translator through the one shared path (sequence/
// session_types.h, with_translate_options): the recurrent and the Transformer sessions and the
// models read back from .safetensors. lengthAlpha is the example: each beam hypothesis scores
// log p / length^α, its length counting <eos> when it has finished (the steps it took).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttentionLab } from '../../wasm/js/attention-lab.mjs';
import { liveModels } from './live-models.mjs';

let lab;
const { create, own, deleteAll } = liveModels(() => lab);
const SENTENCE = '咖哥 喜欢 小冰';

before(async () => {
  lab = await loadAttentionLab();
});
after(deleteAll);

/** Each hypothesis's score against log p / (step + 1)^α, for several α. */
function checkScores(model, what) {
  const byAlpha = new Map();
  for (const alpha of [0, 0.5, 1, 2]) {
    const r = model.translate(SENTENCE, { beam: 3, lengthAlpha: alpha });
    assert.ok(r.beams.hypotheses.length >= 2, `${what}: at least two hypotheses to rank`);
    for (const h of r.beams.hypotheses) {
      const expected = h.logProb / Math.pow(h.step + 1, alpha);
      assert.ok(Math.abs(h.score - expected) <= 1e-12 * Math.max(1, Math.abs(expected)), `${what}, α ${alpha}: score ${h.score}, log p / length^α ${expected}`);
    }
    byAlpha.set(alpha, r.beams.hypotheses.map((h) => h.score));
  }
  // left out, α is 1
  assert.deepEqual(model.translate(SENTENCE, { beam: 3 }).beams.hypotheses.map((h) => h.score), byAlpha.get(1), `${what}: the default α`);
}

for (const [name, config] of [
  ['the recurrent translator', { task: 'note', cell: 'gru', attention: true, hidden: 16, seed: 1 }],
  ['the Transformer', { arch: 'transformer', task: 'note', layers: 1, heads: 2, dModel: 8, dFF: 16, seed: 1 }],
]) {
  test(`lengthAlpha scores the beam of ${name}, its session and its .safetensors file alike`, () => {
    const session = create(config);
    session.train(30);
    checkScores(session, name);
    const file = own(lab.loadSeq2Seq(session.save({ format: 'safetensors' })));
    checkScores(file, `${name} from .safetensors`);
  });
}
