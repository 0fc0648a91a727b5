// The Transformer as .safetensors through the JS API: the reference file exported from wasm gives
// the logits PyTorch's TransformerSeq2Seq gives (shared/reference/safetensors.json "transformer",
// tests/reference/gen_safetensors.py, the same check as tests/native/test_transformer_interchange.cpp);
// a session's save({format: 'safetensors'}) loads back as a translator with the same translations
// and attention, and writes the same bytes again.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttentionLab } from '../../wasm/js/attention-lab.mjs';
import { NOTE_PAIRS, loadReference } from './case-runner.mjs';
import { liveModels } from './live-models.mjs';
import { parseSafetensors, referenceBytes } from './safetensors-file.mjs';

const REF = loadReference('safetensors.json').transformer;
let lab;
const { own, deleteAll } = liveModels(() => lab);

before(async () => {
  lab = await loadAttentionLab();
});
after(deleteAll);

test("the exported reference Transformer gives PyTorch's logits and translations", () => {
  const m = own(lab.loadSeq2Seq(referenceBytes(REF.file)));
  const info = m.info();
  assert.equal(info.arch, 'transformer');
  assert.equal(info.format, 'safetensors');
  assert.deepEqual([info.layers, info.heads, info.dModel, info.dFF, info.normFirst], [REF.config.layers, REF.config.heads,
    REF.config.dModel, REF.config.dFF, REF.config.normFirst]);
  assert.equal(info.metadata.task, 'note');
  let worst = 0;
  for (const c of REF.cases) {
    const tf = m.teacherForced(c.source, c.target);
    assert.deepEqual(tf.logits.shape, c.logits.shape);
    c.logits.data.forEach((e, i) => { worst = Math.max(worst, Math.abs(tf.logits.data[i] - e)); });
    assert.equal(m.translate(c.source).text, c.greedy, c.source);
  }
  assert.ok(worst <= 1e-5, `largest |core - PyTorch| ${worst}`);
  assert.ok(Buffer.from(m.save()).equals(Buffer.from(referenceBytes(REF.file))), 'read → write gives the same bytes');
  assert.throws(() => m.train(1), /has no task to train on/);
});

test("a Transformer session's .safetensors export loads back with the same translations and attention", () => {
  const s = own(lab.createSeq2Seq({ arch: 'transformer', task: 'note', layers: 1, heads: 2, dModel: 8, dFF: 12, batchSize: 5, warmup: 0,
    learningRate: 1e-2 }));
  s.train(30);
  const bytes = s.save({ format: 'safetensors' });
  const { header } = parseSafetensors(bytes);
  const names = Object.keys(header).filter((k) => k !== '__metadata__')
    .sort((a, b) => header[a].data_offsets[0] - header[b].data_offsets[0]); // in the data's order
  assert.equal(names[0], 'src_embedding.weight');
  assert.ok(names.includes('transformer.decoder.layers.0.multihead_attn.in_proj_weight'));
  assert.ok(names.includes('transformer.encoder.norm.weight'));
  assert.equal(names.at(-1), 'out.bias');
  const meta = parseSafetensors(bytes).header.__metadata__;
  assert.deepEqual(JSON.parse(meta.config), { arch: 'transformer', layers: 1, heads: 2, dModel: 8, dFF: 12, normFirst: false, tokenizer: 'words' });
  assert.deepEqual(JSON.parse(meta.src_vocab).slice(4), s.sourceVocabulary());
  const m = own(lab.loadSeq2Seq(bytes));
  assert.deepEqual(m.targetVocabulary().slice(4), s.targetVocabulary());
  for (const [source] of NOTE_PAIRS) {
    const a = s.translate(source), b = m.translate(source);
    assert.equal(b.text, a.text);
    assert.deepEqual(Array.from(b.steps[0].cross.data), Array.from(a.steps[0].cross.data));
    assert.deepEqual(Array.from(b.encoder.rollout.data), Array.from(a.encoder.rollout.data));
    assert.deepEqual(m.translate(source, { beam: 3 }).beams.hypotheses.map((h) => h.score),
      s.translate(source, { beam: 3 }).beams.hypotheses.map((h) => h.score));
  }
  assert.ok(Buffer.from(m.save({ format: 'safetensors' })).equals(Buffer.from(bytes)));
  assert.throws(() => s.save({ format: 'safetensors', names: 'book' }), /a Transformer has one naming, the reference module's/);
  assert.throws(() => m.save({ names: 'book' }), /a Transformer has one naming, the reference module's/);
});
