// Part 2 of `npm run bench`: Seq2Seq training steps, native (bench_native seq2seq, the same loop
// as the JS API's train(n)), wasm (the JS API) and PyTorch (bench/torch_seq2seq.py), same data.
//   note:  the note's recipe, RNN, hidden = embedding = 128, dot attention, batch 1, Adam 1e-3
//   dates: LSTM 64, embedding 64, dot attention + attentional tanh 64, batch 128, Adam 1e-3
import { fmt, runNative, spread, stats, table } from './common.mjs';
import { torchSeq2seq } from './peers.mjs';

export const RECIPES = {
  note: { task: 'note', cell: 'rnn', hidden: 128, embedding: 128, attention: true, score: 'dot', seed: 1, batchSize: 1, learningRate: 1e-3 },
  dates: { task: 'dates', cell: 'lstm', hidden: 64, embedding: 64, attention: true, score: 'dot', attentionalTanh: true, seed: 1, batchSize: 128, learningRate: 1e-3 },
};
// The reference figures the goals were set from (PyTorch's note step, TF.js's dates examples/s, on
// this machine type) and the goals for wasm: 10× faster.
export const REFERENCE = { note_step_us: 1770, dates_examples_per_s: 280 };
export const GOAL = { note_step_us: 177, dates_examples_per_s: 2800 };

// Seconds per step: `reps` calls of train(block) after a warm-up of `warmup` steps; and per call
// for train(1), to show what one call costs on top of the step.
function wasmPerStep(create, name, warmup, block, reps) {
  const model = create(RECIPES[name]);
  try {
    model.train(warmup);
    const samples = [], single = [];
    let losses;
    for (let r = 0; r < reps; r++) {
      const t0 = performance.now();
      losses = model.train(block).losses;
      samples.push((performance.now() - t0) / 1000 / block);
    }
    for (let r = 0; r < Math.min(block, 50); r++) {
      const t0 = performance.now();
      model.train(1);
      single.push((performance.now() - t0) / 1000);
    }
    return [
      { measure: 'step', recipe: name, batch: RECIPES[name].batchSize, steps_per_sample: block, ...stats(samples), final_loss: losses[losses.length - 1] },
      { measure: 'call1', recipe: name, batch: RECIPES[name].batchSize, steps_per_sample: 1, ...stats(single) },
    ];
  } finally {
    model.delete();
  }
}

// Seconds for `steps` steps of a fresh model in one train() call; one untimed run first.
function wasmTotal(create, name, steps, reps) {
  const samples = [];
  let last;
  for (let r = 0; r <= reps; r++) {
    const model = create(RECIPES[name]);
    const t0 = performance.now();
    last = model.train(steps).losses;
    if (r > 0) samples.push((performance.now() - t0) / 1000);
    model.delete();
  }
  return { measure: 'total', recipe: name, batch: RECIPES[name].batchSize, steps_per_sample: steps, ...stats(samples), final_loss: last[last.length - 1] };
}

// createFma: the FMA build's createSeq2Seq (null without relaxed SIMD), whose steps are timed too
// for the limit table (bench/lib/limit.mjs).
export function seq2seqPart(create, nativeBinary, scale, data, createFma = null) {
  const n = (x) => Math.max(1, Math.round(x * scale));
  const native = runNative(nativeBinary, ['seq2seq', scale]);
  const wasm = [
    ...wasmPerStep(create, 'note', n(200), n(200), 9),
    wasmTotal(create, 'note', 400, 5),
    ...wasmPerStep(create, 'dates', n(5), n(10), 7),
  ];
  const fma = createFma ? [...wasmPerStep(createFma, 'note', n(200), n(200), 9), ...wasmPerStep(createFma, 'dates', n(5), n(10), 7)] : [];
  const torch = torchSeq2seq(data.note, data.dates, scale);
  const find = (rows, measure, recipe) => rows.find((m) => m.measure === measure && m.recipe === recipe);
  const us = (m) => (m ? `${fmt(m.median_s * 1e6, 0)} ± ${spread(m)}` : '–');
  const ms = (m) => (m ? `${fmt(m.median_s * 1e3, 1)} ± ${spread(m)}` : '–');
  const eps = (m, batch) => (m ? `${fmt(batch / m.median_s, 0)} ± ${spread(m)}` : '–');

  const note = {
    native: { step: find(native, 'step', 'note'), total: find(native, 'total', 'note') },
    wasm: { step: find(wasm, 'step', 'note'), call1: find(wasm, 'call1', 'note'), total: find(wasm, 'total', 'note') },
    wasm_fma: { step: find(fma, 'step', 'note') ?? null },
    torch: torch.note_step_s ? { step: torch.note_step_s, total: torch.note_total_s } : null,
    reference_torch_step_us: REFERENCE.note_step_us, goal_wasm_step_us: GOAL.note_step_us,
  };
  const tStep = note.torch?.step;
  table('Seq2Seq, the note\'s recipe: one training step (forward + backward + Adam), batch 1',
    'RNN, hidden 128, embedding 128, dot attention, the 5 note pairs, the same examples on every side. Median ± spread.',
    ['measure', 'native', 'wasm', 'PyTorch (1 thread)', 'wasm vs native', 'wasm vs PyTorch', 'goal (wasm)'],
    [[`µs per step (train(${note.wasm.step.steps_per_sample}) calls)`, us(note.native.step), us(note.wasm.step), us(tStep),
      fmt(note.native.step.median_s / note.wasm.step.median_s, 2), tStep ? `${fmt(tStep.median_s / note.wasm.step.median_s, 1)}×` : '–',
      `≤ ${GOAL.note_step_us} (10× the reference ${REFERENCE.note_step_us})`],
    ['µs per train(1) call', '', us(note.wasm.call1), '', '', '', ''],
    ['ms for 400 steps, fresh model', ms(note.native.total), ms(note.wasm.total), ms(note.torch?.total),
      fmt(note.native.total.median_s / note.wasm.total.median_s, 2), note.torch ? `${fmt(note.torch.total.median_s / note.wasm.total.median_s, 1)}×` : '–',
      `≤ ${fmt((GOAL.note_step_us * 400) / 1000, 1)}`]]);
  console.log(`\nLoss after 400 steps: native ${fmt(note.native.total.final_loss, 4)}, wasm ${fmt(note.wasm.total.final_loss, 4)}${torch.note_total_loss !== undefined ? `, PyTorch ${fmt(torch.note_total_loss, 4)} (its own initial weights)` : ''}.`);
  console.log(torch.skipped ? `PyTorch column: skipped (${torch.skipped}).` : `PyTorch ${torch.version}, ${torch.threads} thread, BLAS: ${torch.blas}.`);

  const dates = {
    native: { step: find(native, 'step', 'dates') },
    wasm: { step: find(wasm, 'step', 'dates'), call1: find(wasm, 'call1', 'dates') },
    wasm_fma: { step: find(fma, 'step', 'dates') ?? null },
    torch: torch.dates_step_s ? { step: torch.dates_step_s } : null,
  };
  return { note, dates, torch: torch.skipped ? { skipped: torch.skipped } : { version: torch.version, threads: torch.threads, blas: torch.blas } };
}
