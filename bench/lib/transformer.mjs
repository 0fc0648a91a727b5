// The Transformer part of `npm run bench`: one training step (forward, backward, gradient
// clipping, Adam) of the encoder-decoder Transformer on dates, native (bench_native transformer,
// TransformerSession::train), wasm (the JS API's train(n), the same loop), PyTorch
// (bench/torch_transformer.py: nn.Transformer, one thread, OpenBLAS where installed: peers.mjs) and TF.js-wasm
// (bench/tfjs_transformer.mjs: the same model in tf.* ops, XNNPACK, SIMD, one thread), on the same
// recipes and the same dates, side by side in one run. The recipes: the session's dates default and
// a larger model, where the peers' per-operation overhead weighs less.
import { readFileSync, writeFileSync } from 'node:fs';
import { fmt, root, runNative, spread, table, timeTraining } from './common.mjs';
import { tfjsTransformer, torchTransformer } from './peers.mjs';

const LARGER = { name: 'larger', task: 'dates', layers: 2, heads: 4, dModel: 64, dFF: 256, normFirst: false, batchSize: 64 };
export const TRANSFORMER_GOAL = 5;  // wasm at least 5× faster per step than PyTorch

// Seconds per step (common.mjs's timeTraining: bench_transformer.cpp's scheme).
function wasmPerStep(create, recipe, warmup, block) {
  const { name, ...config } = recipe;
  const model = create({ arch: 'transformer', seed: 1, ...config });
  try {
    return { recipe: name, ...timeTraining(model, warmup, block), parameters: model.info().parameterCount };
  } finally {
    model.delete();
  }
}

// The session's defaults for dates, read from the session itself.
function datesDefault(create) {
  const model = create({ arch: 'transformer', task: 'dates' });
  const i = model.info();
  model.delete();
  return { name: 'dates default', task: 'dates', layers: i.layers, heads: i.heads, dModel: i.dModel, dFF: i.dFF, normFirst: i.normFirst, batchSize: i.batchSize };
}

// createFma: the FMA build's createSeq2Seq (null without relaxed SIMD), timed beside the plain one.
export function transformerPart(create, nativeBinary, scale, datesData, createFma = null) {
  const n = (x) => Math.max(1, Math.round(x * scale));
  const TRANSFORMER_RECIPES = [datesDefault(create), LARGER];
  const recipesFile = `${root}build/native-bench/transformer-recipes.json`;
  writeFileSync(recipesFile, JSON.stringify(TRANSFORMER_RECIPES));
  const native = runNative(nativeBinary, ['transformer', recipesFile, scale]);
  const wasm = TRANSFORMER_RECIPES.map((r) => wasmPerStep(create, r, n(10), n(20)));
  const fma = createFma ? TRANSFORMER_RECIPES.map((r) => wasmPerStep(createFma, r, n(10), n(20))) : null;
  const torch = torchTransformer(datesData, recipesFile, scale);
  const tfjs = tfjsTransformer(datesData, recipesFile, scale);
  const ms = (m) => (m ? `${fmt(m.median_s * 1e3, 2)} ± ${spread(m)}` : '–');
  const rows = TRANSFORMER_RECIPES.map((r, i) => {
    const nat = native.find((m) => m.recipe === r.name), w = wasm[i], t = torch.steps?.[r.name], j = tfjs.steps?.[r.name];
    const f = fma?.[i] ?? null;
    return { recipe: r, native: nat, wasm: w, wasm_fma: f, fma_vs_wasm: f ? f.median_s / w.median_s : null, torch_vs_fma_cpu: f && t ? t.cpu_s / f.cpu_s : null,
      torch: t ?? null, tfjs: j ?? null, wasm_vs_native: nat ? w.median_s / nat.median_s : null,
      torch_vs_wasm: t ? t.median_s / w.median_s : null, torch_vs_wasm_cpu: t ? t.cpu_s / w.cpu_s : null,
      tfjs_vs_wasm: j ? j.median_s / w.median_s : null, tfjs_vs_wasm_cpu: j ? j.cpu_s / w.cpu_s : null };
  });
  const cpuMs = (m) => (m ? fmt(m.cpu_s * 1e3, 2) : '–');
  const ratio = (x) => (x ? `${fmt(x, 1)}×` : '–');
  table('Transformer: one training step (forward + backward + clipping + Adam) on dates',
    'The same recipes and dates on every side; wall-clock ms per step (median ± spread of 7 blocks) and the process\'s CPU ms per step (median), ' +
    'which on a shared machine is what the step itself costs. "wasm" is the SIMD128 build, "wasm FMA" the relaxed-SIMD build (fused multiply-add), timed in this process. "PyTorch ÷ wasm", "TF.js ÷ wasm": how many times faster wasm is, by wall clock and by CPU time (goal ≥ 5× PyTorch).',
    ['recipe', 'parameters', 'native', 'wasm', 'wasm FMA', 'FMA ÷ SIMD128', 'PyTorch ÷ wasm FMA (CPU)', 'PyTorch (1 thread)', 'TF.js-wasm (1 thread)', 'CPU: native', 'CPU: wasm', 'CPU: PyTorch', 'CPU: TF.js',
      'wasm ÷ native', 'PyTorch ÷ wasm', 'PyTorch ÷ wasm (CPU)', 'TF.js ÷ wasm', 'TF.js ÷ wasm (CPU)', `goal ≥ ${TRANSFORMER_GOAL}× PyTorch (CPU)`],
    rows.map((r) => [
      `${r.recipe.name}: ${r.recipe.layers} layer${r.recipe.layers > 1 ? 's' : ''}, ${r.recipe.heads} heads, dModel ${r.recipe.dModel}, dFF ${r.recipe.dFF}, ${r.recipe.normFirst ? 'pre' : 'post'}-norm, batch ${r.recipe.batchSize}`,
      r.wasm.parameters.toLocaleString('en-US'), ms(r.native), ms(r.wasm), ms(r.wasm_fma), r.fma_vs_wasm ? `${fmt(r.fma_vs_wasm, 2)}×` : '–',
      ratio(r.torch_vs_fma_cpu), ms(r.torch), ms(r.tfjs), cpuMs(r.native), cpuMs(r.wasm), cpuMs(r.torch), cpuMs(r.tfjs),
      r.wasm_vs_native ? `${fmt(r.wasm_vs_native, 2)}×` : '–', ratio(r.torch_vs_wasm), ratio(r.torch_vs_wasm_cpu), ratio(r.tfjs_vs_wasm), ratio(r.tfjs_vs_wasm_cpu),
      r.torch_vs_wasm_cpu ? (r.torch_vs_wasm_cpu >= TRANSFORMER_GOAL ? 'met' : 'not met') : '–',
    ]));
  if (torch.skipped) console.log(`\nPyTorch column skipped: ${torch.skipped}`);
  else console.log(`\nPyTorch ${torch.version}, ${torch.threads} thread, ${torch.blas}`);
  if (tfjs.skipped) console.log(`TF.js column skipped: ${tfjs.skipped}`);
  else console.log(`TF.js ${tfjs.tfjs}, backend ${tfjs.backend} (XNNPACK), SIMD ${tfjs.simd ? 'on' : 'off'}, ${tfjs.threads} thread`);
  // The peers build the same model: the same parameter count, and step 0's loss near ln(target vocabulary).
  const lnVt = Math.log(JSON.parse(readFileSync(datesData, 'utf8')).target_vocab.length);
  for (const r of rows) {
    const count = (m) => (m ? `${m.parameters.toLocaleString('en-US')}${m.parameters === r.wasm.parameters ? ' (= ours)' : ' (≠ ours: not the same model)'}` : '–');
    console.log(`${r.recipe.name}: loss at step 0 (ln Vt = ${fmt(lnVt, 4)}): wasm ${fmt(r.wasm.first_loss, 4)}, PyTorch ${fmt(r.torch?.first_loss, 4)}, ` +
      `TF.js ${fmt(r.tfjs?.first_loss, 4)}; parameters: ours ${r.wasm.parameters.toLocaleString('en-US')}, PyTorch ${count(r.torch)}, TF.js ${count(r.tfjs)}`);
  }
  return { rows, torch: torch.skipped ? { skipped: torch.skipped } : { version: torch.version, blas: torch.blas },
    tfjs: tfjs.skipped ? { skipped: tfjs.skipped } : { version: tfjs.tfjs, backend: tfjs.backend, simd: tfjs.simd, threads: tfjs.threads } };
}
