#!/usr/bin/env node
// The Transformer on the dates task at the session's defaults for it (transformer/session.h's
// transformer_session_defaults), in wasm under Node: training steps and seconds to 98% held-out
// exact match, against the 60 s goal. For each seed it trains one model through the package API
// (lab.createSeq2Seq({arch: 'transformer', task: 'dates', seed})) and every --every steps
// evaluates greedy exact match on the task's 2000 held-out dates (never trained on). Only the
// time inside train() is counted (evaluation is not). Steps to 98% are deterministic from the
// seed (the same on any machine for this build); seconds depend on the machine and its load, so
// the summary also gives the process's CPU time per step (process.cpuUsage(): what one unloaded
// core would take) and the seconds the steps imply at it.
//
//   node scripts/transformer-dates.mjs                       # seed 1, until 98% (at most 6000 steps)
//   node scripts/transformer-dates.mjs --seeds 1,2,3         # one table per seed, then a summary
//   node scripts/transformer-dates.mjs --d-model 64 --d-ff 128 --layers 2   # another recipe
// Options: --seeds LIST  --every N (steps between evaluations, default 250)  --max-steps N
//          --goal-seconds S (default 60)  --target X (default 0.98)  --full 0|1 (keep training to
//          --max-steps after the target)  and the recipe, each overriding the session's default:
//          --layers N --heads N --d-model N --d-ff N --norm-first 0|1 --warmup N --lr X --batch N
//          --clip X. Needs `bash scripts/build-wasm.sh`.
import { cpus, loadavg } from 'node:os';
import { loadAttentionLab } from '../wasm/js/attention-lab.mjs';

const run = { seeds: '1', every: 250, 'max-steps': 6000, 'goal-seconds': 60, target: 0.98, full: 0 };
const recipeKeys = { layers: 'layers', heads: 'heads', 'd-model': 'dModel', 'd-ff': 'dFF', 'norm-first': 'normFirst',
  warmup: 'warmup', lr: 'learningRate', batch: 'batchSize', clip: 'clipNorm' };
const recipe = {};
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i += 2) {
  const key = argv[i].replace(/^--/, '');
  const value = argv[i + 1];
  const numeric = key === 'seeds' ? /^\d+(,\d+)*$/.test(value ?? '') : Number.isFinite(Number(value));
  if ((!(key in run) && !(key in recipeKeys)) || value === undefined || !numeric) {
    console.error(`unknown option or value: ${argv[i]} ${value ?? ''}\noptions: ${[...Object.keys(run), ...Object.keys(recipeKeys)].map((k) => `--${k}`).join(' ')}`);
    process.exit(2);
  }
  if (key in run) run[key] = key === 'seeds' ? value : Number(value);
  else recipe[recipeKeys[key]] = key === 'norm-first' ? Number(value) === 1 : Number(value);
}
const seeds = run.seeds.split(',').map(Number);
const pct = (x) => `${(100 * x).toFixed(1)}%`;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const lab = await loadAttentionLab();
console.log(`# The Transformer on dates (wasm, Node ${process.version}, ${cpus()[0]?.model ?? 'cpu'}, ${cpus().length} cores, ` +
  `load average ${loadavg()[0].toFixed(1)} at the start)`);
const summary = [];
for (const seed of seeds) {
  const model = lab.createSeq2Seq({ arch: 'transformer', task: 'dates', seed, ...recipe });
  const info = model.info();
  console.log(`\n## seed ${seed}: ${info.layers} layer${info.layers > 1 ? 's' : ''}, ${info.heads} heads, dModel ${info.dModel}, ` +
    `dFF ${info.dFF}, ${info.normFirst ? 'pre' : 'post'}-norm, ${info.parameterCount.toLocaleString('en-US')} parameters; ` +
    `batch ${info.batchSize}, Adam peak lr ${Number(info.learningRate.toPrecision(6))} after ${info.warmup} warm-up steps, ` +
    `clip ${Number(info.clipNorm.toPrecision(6))}${Object.keys(recipe).length ? '' : ' (the session\'s defaults for dates)'}\n`);
  console.log('| steps | training s | ms / step (last block) | CPU ms / step (last block) | held-out exact match | held-out token acc |');
  console.log('|---:|---:|---:|---:|---:|---:|');
  let steps = 0, ms = 0, cpuMs = 0, reached = null;
  const blockMs = [];
  while (steps < run['max-steps']) {
    const n = Math.min(run.every, run['max-steps'] - steps);
    const t0 = performance.now(), c0 = process.cpuUsage();
    model.train(n);
    const dt = performance.now() - t0;
    const c = process.cpuUsage(c0);
    const dc = (c.user + c.system) / 1000;
    ms += dt;
    cpuMs += dc;
    steps += n;
    blockMs.push(dt / n);
    const ev = model.evaluate();
    console.log(`| ${steps} | ${(ms / 1000).toFixed(1)} | ${(dt / n).toFixed(2)} | ${(dc / n).toFixed(2)} | ${pct(ev.exactMatch)} | ${pct(ev.tokenAccuracy)} |`);
    if (!reached && ev.exactMatch >= run.target) {
      reached = { steps, seconds: ms / 1000, exactMatch: ev.exactMatch };
      if (!run.full) break;
    }
  }
  const msPerStep = median(blockMs);
  summary.push({ seed, reached, msPerStep, cpuMsPerStep: cpuMs / steps, steps, seconds: ms / 1000 });
  model.delete();
}

console.log(`\n## Summary: steps and seconds of training to ${pct(run.target)} held-out exact match (2000 dates)\n`);
console.log('| seed | steps to target | training s to target (this run) | median ms / step | CPU ms / step | seconds the steps imply at the CPU time |');
console.log('|---:|---:|---:|---:|---:|---:|');
for (const s of summary) {
  console.log(s.reached
    ? `| ${s.seed} | ${s.reached.steps} | ${s.reached.seconds.toFixed(1)} | ${s.msPerStep.toFixed(2)} | ${s.cpuMsPerStep.toFixed(2)} | ${((s.reached.steps * s.cpuMsPerStep) / 1000).toFixed(1)} |`
    : `| ${s.seed} | not within ${s.steps} | ${s.seconds.toFixed(1)} (never) | ${s.msPerStep.toFixed(2)} | ${s.cpuMsPerStep.toFixed(2)} | – |`);
}
const worst = summary.every((s) => s.reached) ? Math.max(...summary.map((s) => s.reached.seconds)) : null;
const worstCpu = summary.every((s) => s.reached) ? Math.max(...summary.map((s) => (s.reached.steps * s.cpuMsPerStep) / 1000)) : null;
console.log(worst !== null && worst <= run['goal-seconds']
  ? `\nGoal met on this run: every seed reached ${pct(run.target)} within ${run['goal-seconds']} s of training (the slowest after ${worst.toFixed(1)} s).`
  : `\nGoal NOT met on this run: ${worst === null ? `a seed never reached ${pct(run.target)}` : `the slowest seed needed ${worst.toFixed(1)} s`} (goal: ${pct(run.target)} within ${run['goal-seconds']} s).`);
if (worstCpu !== null) {
  console.log(`At this run's CPU time per step the slowest seed's steps take ${worstCpu.toFixed(1)} s of one core: ` +
    `${worstCpu <= run['goal-seconds'] ? 'within' : 'beyond'} the ${run['goal-seconds']} s goal on an unloaded core.`);
}
