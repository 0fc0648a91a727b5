// Trains small translators on the note's five pairs in wasm and exports each as .safetensors into
// shared/reference/ (core_*.safetensors and transformer_note.safetensors, committed).
// tests/reference/gen_safetensors.py then loads them into PyTorch modules with load_state_dict and
// records PyTorch's logits, which the native and wasm suites compare with the core's. Run after
// `bash scripts/build-wasm.sh`:
//
//   node tests/reference/export_core_models.mjs && /usr/bin/python3 tests/reference/gen_safetensors.py
//
// Seeded: the same build writes the same bytes every time.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

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
