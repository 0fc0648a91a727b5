#!/usr/bin/env node
// The GPT on the Tang poems at the session's recipe (gpt/session.cpp's gpt_poems_defaults), in
// wasm under Node, single thread: seconds of training until the held-out loss per character goes
// below the bigram baseline (add-one smoothed, fitted on the training poems), against the 40 s
// goal; the form rate (wasm/js/gpt-form.mjs: the share of 100 samples, temperature 0.8, seeds
// 1–100, with 4 or 8 lines of 5 or 7 characters) and seed 1's sample at steps 0, 100, 200, 500 and the
// end; and the greedy and temperature-0.8 samples at the end. Each seed trains one session
// through the package API (lab.createGptSession) in chunks of --every steps, evaluating after each
// (only the time inside train() is counted). Losses are deterministic from the seed on this build;
// seconds depend on the machine and its load, so the summary gives the load average and the
// process's CPU time per step too (what one unloaded core would take).
//
//   node scripts/gpt-poems.mjs                               # seed 1, 40 s of training
//   node scripts/gpt-poems.mjs --seeds 1,2,3 --seconds 40
//   node scripts/gpt-poems.mjs --module gpt                   # the widget-sized module
//   node scripts/gpt-poems.mjs --d-model 96 --layers 3 --block-size 48   # another recipe
//   node scripts/gpt-poems.mjs --corpus tang300               # all 313 poems, not only the regular ones
// Options: --seeds LIST  --every N (default 100)  --seconds S (training budget, default 40)
//          --steps N (stop at step N instead; 0: the seconds decide)
//          --corpus tang300-form|tang300 (default tang300-form, the recipe's)
//          --module full|gpt  and the recipe: --layers --heads --d-model --block-size --batch
//          --lr --warmup --held-out --windows poem|text --drills SHARE. Needs `npm run build:poems` and `bash scripts/build-wasm.sh`.
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { loadAttentionLab } from '../wasm/js/attention-lab.mjs';
import { FORM_SEEDS, FORM_TEMPERATURE, formRate, POEM_START, regularPoems, SAMPLE_CAP, samplePoem } from '../wasm/js/gpt-form.mjs';

const run = { seeds: '1', every: 100, seconds: 40, steps: 0, module: 'full', corpus: 'tang300-form' };
const CHOICES = { module: ['full', 'gpt'], corpus: ['tang300-form', 'tang300'], windows: ['poem', 'text'] };
const recipeKeys = { layers: 'layers', heads: 'heads', 'd-model': 'dModel', 'block-size': 'blockSize', batch: 'batchSize',
  lr: 'learningRate', warmup: 'warmup', 'held-out': 'heldOut', windows: 'windows', drills: 'drills' };
const recipe = {};
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i += 2) {
  const key = argv[i].replace(/^--/, '');
  const value = argv[i + 1];
  const ok = key === 'seeds' ? /^\d+(,\d+)*$/.test(value ?? '') : key in CHOICES ? CHOICES[key].includes(value) : Number.isFinite(Number(value));
  if ((!(key in run) && !(key in recipeKeys)) || value === undefined || !ok) {
    console.error(`unknown option or value: ${argv[i]} ${value ?? ''}\noptions: ${[...Object.keys(run), ...Object.keys(recipeKeys)].map((k) => `--${k}`).join(' ')}`);
    process.exit(2);
  }
  if (key in run) run[key] = typeof run[key] === 'string' ? value : Number(value);
  else recipe[recipeKeys[key]] = key in CHOICES ? value : Number(value);
}

const tang = readFileSync(new URL('../build/poems/tang300.txt', import.meta.url), 'utf8');
const text = run.corpus === 'tang300-form' ? regularPoems(tang) : tang;
/** Steps at which the form rate of FORM_SEEDS is measured (and at the end). */
const FORM_AT = [0, 100, 200, 500];
/** The form rate of the 100 samples, and seed 1's poem. */
function form(s) {
  const generated = FORM_SEEDS.map((seed) => s.sample(POEM_START, { maxNewTokens: SAMPLE_CAP, temperature: FORM_TEMPERATURE, seed, topCandidates: 0 }).generated);
  const { verdicts, rate } = formRate(generated);
  return { rate, first: samplePoem(generated[0]) ?? generated[0], firstOk: verdicts[0].ok };
}
const showForm = (step, f) => console.log(`  step ${step}: form ${(100 * f.rate).toFixed(0)}% of ${FORM_SEEDS.length} samples; seed 1 ${f.firstOk ? '(form)' : '(no form)'}: ${JSON.stringify(f.first)}`);
const lab = await loadAttentionLab({ variant: run.module });
const f = (x) => x.toFixed(3);
const summary = [];
for (const seed of run.seeds.split(',').map(Number)) {
  const s = lab.createGptSession({ text, ...recipe, seed });
  try {
    const info = s.info();
    if (seed === Number(run.seeds.split(',')[0])) {
      console.log(`recipe: ${JSON.stringify(info.config)}; ${info.parameters} parameters; vocabulary ${info.vocab.length}; ` +
        `${info.corpus.trainPoems} training poems (${info.corpus.trainCharacters} characters), ${info.corpus.heldOutPoems} held out (${info.corpus.heldOutCharacters}); module ${run.module}`);
    }
    console.log(`seed ${seed}\n   step  train s  train loss  held-out  bigram  unigram`);
    let trainMs = 0, below = null, trainCpu = 0;
    showForm(0, form(s));
    while (run.steps > 0 ? s.info().step < run.steps : trainMs < run.seconds * 1000) {
      const t0 = performance.now();
      const c0 = process.cpuUsage();
      const r = s.train(run.every);
      const c = process.cpuUsage(c0);
      trainCpu += (c.user + c.system) / 1000;
      trainMs += performance.now() - t0;
      const e = s.evaluate();
      if (below === null && e.validationLoss < e.bigramLoss) below = { step: r.step, seconds: trainMs / 1000 };
      console.log(`${String(r.step).padStart(7)}  ${(trainMs / 1000).toFixed(1).padStart(7)}  ${f(e.trainLoss).padStart(10)}  ` +
        `${f(e.validationLoss).padStart(8)}  ${f(e.bigramLoss).padStart(6)}  ${f(e.unigramLoss).padStart(7)}`);
      if (FORM_AT.includes(r.step)) showForm(r.step, form(s));
    }
    const steps = s.info().step;
    const e = s.evaluate();
    const end = form(s);
    showForm(steps, end);
    for (const [name, options] of [['greedy', { greedy: true }], ['temperature 0.8', { temperature: 0.8, seed: 1 }]]) {
      for (const prompt of ['床前', '白日', POEM_START]) {
        console.log(`  ${name}, ${prompt}: ${JSON.stringify(s.sample(prompt, { maxNewTokens: 48, ...options }).text)}`);
      }
    }
    summary.push({ seed, steps, seconds: trainMs / 1000, cpuMsPerStep: trainCpu / steps, form: end.rate, heldOut: e.validationLoss,
      bigram: e.bigramLoss, unigram: e.unigramLoss, below });
  } finally {
    s.delete();
  }
}
console.log(`\nload average ${loadavg().map((x) => x.toFixed(1)).join(' ')} (1, 5, 15 min)`);
for (const r of summary) {
  console.log(`seed ${r.seed}: ${r.steps} steps in ${r.seconds.toFixed(1)} s (${r.cpuMsPerStep.toFixed(1)} ms CPU/step); held-out ${f(r.heldOut)}, ` +
    `bigram ${f(r.bigram)}, unigram ${f(r.unigram)}; form ${(100 * r.form).toFixed(0)}% of ${FORM_SEEDS.length} samples at T=${FORM_TEMPERATURE}; ` +
    (r.below ? `below the bigram from step ${r.below.step} (${r.below.seconds.toFixed(1)} s)` : `not below the bigram within ${run.seconds} s`));
}
