// Trains small translators on the note's five pairs in wasm and exports each as .safetensors into
// shared/reference/ (core_*.safetensors and transformer_note.safetensors, committed), and a GPT
// trained on a fixed batch (gpt_core.safetensors).
// tests/reference/gen_safetensors.py and gen_gpt.py then load them into PyTorch modules with
// load_state_dict and record PyTorch's logits (and, for the GPT, PyTorch's next training steps),
// which the native and wasm suites compare with the core's. Run after `bash scripts/build-wasm.sh`:
//
//   node tests/reference/export_core_models.mjs && /usr/bin/python3 tests/reference/gen_safetensors.py
//   /usr/bin/python3 tests/reference/gen_gpt.py
//
// Seeded: the same build writes the same bytes every time.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import createCore from '../../build/wasm/attention_lab_core.mjs';
import { loadAttentionLab } from '../../wasm/js/attention-lab.mjs';

const out = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'shared', 'reference');

// Every cell, with and without attention, several scores, the tanh layer, and both namings (the
// book's class takes rnn + dot attention with embedding = hidden).
const MODELS = [
  { file: 'core_rnn_plain.safetensors', config: { cell: 'rnn', hidden: 8, embedding: 6, attention: false } },
  { file: 'core_gru_general_tanh.safetensors', config: { cell: 'gru', hidden: 8, embedding: 6, score: 'general', attentionalTanh: true } },
  { file: 'core_lstm_additive.safetensors', config: { cell: 'lstm', hidden: 8, embedding: 6, score: 'additive' } },
  { file: 'core_rnn_dot_book.safetensors', config: { cell: 'rnn', hidden: 16, score: 'dot' }, names: 'book' },
];

// A Transformer on the same pairs, for gen_transformer.py's TransformerSeq2Seq.
const TRANSFORMER = { file: 'transformer_note.safetensors',
  config: { arch: 'transformer', layers: 2, heads: 2, dModel: 16, dFF: 32, batchSize: 5, warmup: 0 } };

const lab = await loadAttentionLab();
for (const { file, config, names } of [...MODELS, TRANSFORMER]) {
  const model = lab.createSeq2Seq({ task: 'note', seed: 3, learningRate: 1e-2, ...config });
  const { losses } = model.train(300);
  const bytes = model.save({ format: 'safetensors', names: names ?? 'project' });
  writeFileSync(join(out, file), bytes);
  console.log(`${file}: loss ${losses.at(-1).toFixed(4)} after 300 steps, ${bytes.length} bytes;`,
    `咖哥 喜欢 小冰 -> ${model.translate('咖哥 喜欢 小冰').text}`);
  model.delete();
}

// The GPT (no method of the lab object yet: the full module's embind class), 30 AdamW steps on one
// batch of 2 rows of 12 ids.
const core = await createCore();
const gpt = core.createGptModel({ vocab: 13, blockSize: 16, layers: 2, heads: 2, dModel: 8, seed: 11 });
const ids = Array.from({ length: 26 }, (_, i) => (i * 7 + 3) % 13);
const rows = [ids.slice(0, 13), ids.slice(13)];
const batch = {
  idx: { shape: [2, 12], data: rows.flatMap((r) => r.slice(0, 12)) },
  targets: { shape: [2, 12], data: rows.flatMap((r) => r.slice(1)) },
};
let loss;
for (let step = 0; step < 30; step++) {
  loss = gpt.forwardBackward(batch).loss;
  gpt.adamStep({ lr: 1e-2, weightDecay: 0.1, decoupled: true });
}
const gptBytes = gpt.saveSafetensors();
writeFileSync(join(out, 'gpt_core.safetensors'), gptBytes);
console.log(`gpt_core.safetensors: loss ${loss.toFixed(4)} at step 30, ${gptBytes.length} bytes`);
gpt.delete();
