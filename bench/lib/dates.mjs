// Part 3 of `npm run bench`: the dates recipe (LSTM 64, dot attention, tanh 64, Adam 1e-3, batch
// 128) — training examples per second and training seconds to ≥ 98% exact match on the 2000
// held-out dates (greedy decoding every 50 steps, not timed), native, wasm, TF.js-wasm; PyTorch's
// examples/s when it ran. One run each to the target (a long run is its own warm-up).
import { fmt, runNative, spread, table } from './common.mjs';
import { tfjsDates } from './peers.mjs';
import { GOAL, RECIPES, REFERENCE } from './seq2seq.mjs';

const TARGET = 0.98, EVERY = 50;

function wasmToTarget(create, limitS) {
  const model = create(RECIPES.dates);
  try {
    let trainS = 0, steps = 0, exact = 0;
    while (exact < TARGET && trainS < limitS) {
      const t0 = performance.now();
      model.train(EVERY);
      trainS += (performance.now() - t0) / 1000;
      steps += EVERY;
      exact = model.evaluate().exactMatch;
    }
    return { reached: exact >= TARGET, steps, train_s: trainS, exact, limit_s: limitS };
  } finally {
    model.delete();
  }
}

export function datesPart(create, nativeBinary, speed, dataFile, options) {
  const nativeTarget = options.toTarget ? runNative(nativeBinary, ['to-target', options.targetLimitS, EVERY]).find((m) => m.measure === 'to_target') : null;
  const wasmTarget = options.toTarget ? wasmToTarget(create, options.targetLimitS) : null;
  const tfjs = options.toTarget ? tfjsDates(dataFile, options.tfjsLimitS, options.tfjsBlockSteps, options.tfjsBlocks) : { skipped: 'BENCH_ONLY=seq2seq' };
  const result = {
    native: { ...speed.native, to_target: nativeTarget },
    wasm: { ...speed.wasm, to_target: wasmTarget },
    wasm_fma: speed.wasm_fma,
    tfjs: tfjs.skipped ? null : { step: tfjs.step, to_target: tfjs.to_target, backend: tfjs.backend, simd: tfjs.simd, threads: tfjs.threads },
    torch: speed.torch,
    reference_tfjs_examples_per_s: REFERENCE.dates_examples_per_s, goal_wasm_examples_per_s: GOAL.dates_examples_per_s,
  };
  const eps = (m) => (m ? `${fmt(m.batch / m.median_s, 0)} ± ${spread(m)}` : '–');
  const reach = (t) => (!t ? '–' : t.reached ? `${fmt(t.train_s, 1)} s (${t.steps} steps)` : `not reached in ${fmt(t.limit_s, 0)} s (${fmt(t.exact * 100, 1)}% after ${t.steps} steps)`);
  const w = result.wasm.step, tf = result.tfjs?.step;
  table('Dates: training examples per second and time to 98% held-out exact match, batch 128',
    'Embedding 64, LSTM 64 encoder and decoder, dot attention, concat → tanh dense 64 → softmax, Adam 1e-3; TF.js 4.22 on tfjs-backend-wasm in Node, one thread, same data. Median ± spread.',
    ['measure', 'native', 'wasm', 'TF.js-wasm', 'PyTorch (1 thread)', 'wasm vs TF.js', 'goal (wasm)'],
    [['examples/s', eps(result.native.step), eps(w), eps(tf), eps(result.torch?.step), tf ? `${fmt(tf.median_s / w.median_s, 1)}×` : '–',
      `≥ ${GOAL.dates_examples_per_s} (10× the reference ${REFERENCE.dates_examples_per_s})`],
    ['ms per step', fmt(result.native.step.median_s * 1e3, 1), fmt(w.median_s * 1e3, 1), tf ? fmt(tf.median_s * 1e3, 1) : '–',
      result.torch ? fmt(result.torch.step.median_s * 1e3, 1) : '–', '', ''],
    ['training time to ≥ 98% exact match', reach(nativeTarget), reach(wasmTarget), reach(result.tfjs?.to_target), '', '', '']]);
  if (tfjs.skipped) console.log(`\nTF.js column: skipped (${tfjs.skipped}).`);
  return { ...result, tfjs_version: tfjs.tfjs ?? null };
}
