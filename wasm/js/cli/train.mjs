// `attention-lab train`: trains in short chunks (about 0.2 s each) so that Ctrl-C is noticed
// between two Adam steps; prints a progress line every --log-every steps and a held-out evaluation
// every --eval-every steps; writes the model at the end, on Ctrl-C, or after divergence (the
// weights of the last good step).
import { readFileSync } from 'node:fs';
import { createModel, checkWritable, ioMessage, release, writeModel } from './session.mjs';
import { RuntimeError, UsageError } from './options.mjs';
import { duration, fixed, pct } from './format.mjs';

const tick = () => new Promise((r) => setImmediate(r));

/** --task or --pairs FILE (read here: a file that cannot be read is a usage error naming it). */
function taskFrom(o) {
  if (o.pairs === undefined) {
    if (o.task === undefined) throw new UsageError("train needs --task NAME or --pairs FILE (see 'attention-lab train --help')");
    if (o['held-out'] !== undefined) throw new UsageError('--held-out applies to --pairs only (the tasks have their own held-out sets)');
    if (o.tokenize !== 'words') throw new UsageError('--tokenize applies to --pairs only (the tasks have their own tokens)');
    return { task: o.task };
  }
  if (o.task !== undefined) throw new UsageError(`--pairs trains on your own pairs; leave out --task ${o.task}`);
  let text;
  try {
    text = readFileSync(o.pairs, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read the pairs file '${o.pairs}': ${ioMessage(e)}`);
  }
  const c = { task: 'pairs', pairs: text, tokenize: o.tokenize };
  if (o['held-out'] !== undefined) c.heldOut = o['held-out'];
  return c;
}

// Options not given are left out: the session then takes its default for the task.
function transformerConfigFrom(o) {
  if (o['norm-first'] && o['post-norm']) throw new UsageError('--norm-first and --post-norm exclude each other');
  const c = { arch: 'transformer', ...taskFrom(o), seed: o.seed };
  if (o.layers !== undefined) c.layers = o.layers;
  if (o.heads !== undefined) c.heads = o.heads;
  if (o['d-model'] !== undefined) c.dModel = o['d-model'];
  if (o['d-ff'] !== undefined) c.dFF = o['d-ff'];
  if (o['norm-first']) c.normFirst = true;
  if (o['post-norm']) c.normFirst = false;
  if (o.warmup !== undefined) c.warmup = o.warmup;
  if (o.lr !== undefined) c.learningRate = o.lr;
  if (o.clip !== undefined) c.clipNorm = o.clip;
  if (o.batch !== undefined) c.batchSize = o.batch;
  return c;
}

function configFrom(o) {
  if (o.arch === 'transformer') return transformerConfigFrom(o);
  if (o['attentional-tanh'] && o.attention === 'none') throw new UsageError('--attentional-tanh needs attention (not --attention none)');
  const c = { ...taskFrom(o), cell: o.cell, hidden: o.hidden, attention: o.attention !== 'none', seed: o.seed, learningRate: o.lr ?? 0.001 };
  if (c.attention) c.score = o.attention;
  if (o.embedding > 0) c.embedding = o.embedding;
  if (o['attentional-tanh']) c.attentionalTanh = true;
  if (o.batch !== undefined) c.batchSize = o.batch;
  if (o.clip > 0) c.clipNorm = o.clip;
  return c;
}

/** The first line of a run: the model, its size and the training settings. */
function summary(info, o) {
  const params = `${info.parameterCount.toLocaleString('en-US')} parameters`;
  const task = info.pairs ? `${o.pairs} (${info.pairs.trainPairs} pairs, ${info.pairs.heldOutPairs} held out, ${info.pairs.tokenize})` : info.task;
  const clip = info.clipNorm > 0 ? Number(info.clipNorm.toPrecision(6)) : 'off';
  const lr = Number(info.learningRate.toPrecision(6));
  if (info.arch === 'transformer') {
    return `training ${task}: transformer, ${info.layers} layers, ${info.heads} heads, dModel ${info.dModel}, dFF ${info.dFF}, ` +
      `${info.normFirst ? 'pre' : 'post'}-norm, ${params}; batch ${info.batchSize}, lr ${lr} (warm-up ${info.warmup} steps), ` +
      `clip ${clip}, seed ${info.seed}; ${o.steps} steps`;
  }
  const att = info.attention ? `${info.score} attention${info.attentionalTanh ? ' + tanh layer' : ''}` : 'no attention';
  return `training ${task}: ${info.cell}, hidden ${info.hidden}, embedding ${info.embedding}, ${att}, ` +
    `${params}; batch ${info.batchSize}, lr ${lr}, clip ${clip}, seed ${info.seed}; ${o.steps} steps`;
}

/** Token accuracy of a train() result as [sum, count]; the field may be absent, a number or per step. */
function accuracyOf(r, steps) {
  const a = r.tokenAccuracy;
  if (typeof a === 'number' && Number.isFinite(a)) return [a * steps, steps];
  if (a && typeof a.length === 'number') {
    let s = 0, n = 0;
    for (const x of a) if (Number.isFinite(x)) { s += x; ++n; }
    return [s, n];
  }
  return [0, 0];
}

export async function train(lab, o, print) {
  checkWritable(o.out);
  const config = configFrom(o);
  let model;
  try {
    model = createModel(lab, config);
  } catch (e) {
    // The core names the line; the file's name makes it findable.
    if (config.task === 'pairs') throw new UsageError(`${o.pairs}: ${e.message}`);
    throw e;
  }
  const info = model.info();
  print(summary(info, o));

  let interrupted = false;
  const onSigint = () => {
    if (interrupted) { // a second Ctrl-C: stop now (the model file is written atomically, never half)
      release();
      process.exit(130);
    }
    interrupted = true;
    process.stderr.write('\nattention-lab: interrupted; saving the model after the current step (Ctrl-C again to quit without saving)\n');
  };
  process.on('SIGINT', onSigint);

  const w = String(o.steps).length;
  const start = Date.now();
  let done = 0, trainMs = 0, chunk = 1, lastEval = -1, diverged = null;
  let lossSum = 0, lossN = 0, accSum = 0, accN = 0, exSince = 0, msSince = 0;
  const evaluate = () => {
    let ev;
    try {
      ev = model.evaluate(o['eval-examples'] > 0 ? { maxExamples: o['eval-examples'] } : undefined);
    } catch (e) {
      throw new RuntimeError(`evaluation failed: ${e.message}`);
    }
    lastEval = done;
    const label = ev.heldOutIsTrainingData ? 'eval on the training pairs' : 'held-out';
    return ` | ${label}: loss ${fixed(ev.loss)}  tok-acc ${pct(ev.tokenAccuracy)}  exact ${pct(ev.exactMatch)} (${ev.examples})`;
  };
  const line = (withEval) => {
    const speed = msSince > 0 ? Math.round((exSince * 1000) / msSince) : 0;
    let s = `step ${String(done).padStart(w)}/${o.steps}  loss ${fixed(lossN ? lossSum / lossN : NaN)}  tok-acc ${accN ? pct(accSum / accN) : '-'}`;
    if (withEval) s += evaluate();
    print(`${s} | ${speed.toLocaleString('en-US')} ex/s`);
    lossSum = lossN = accSum = accN = exSince = msSince = 0;
  };

  try {
    while (done < o.steps && !interrupted) {
      const nextLog = (Math.floor(done / o['log-every']) + 1) * o['log-every'];
      const nextEval = o['eval-every'] > 0 ? (Math.floor(done / o['eval-every']) + 1) * o['eval-every'] : Infinity;
      const n = Math.max(1, Math.min(chunk, o.steps - done, nextLog - done, nextEval - done));
      const t0 = performance.now();
      let r;
      try {
        r = model.train(n);
      } catch (e) {
        if (!/diverged/.test(e.message)) throw new RuntimeError(`training failed: ${e.message}`);
        diverged = e.message;
        for (const l of e.completed?.losses ?? []) { lossSum += l; ++lossN; } // the steps before it
        break;
      }
      const ms = performance.now() - t0;
      trainMs += ms; msSince += ms;
      done += r.losses.length;
      for (const l of r.losses) { lossSum += l; ++lossN; }
      const [as, an] = accuracyOf(r, r.losses.length);
      accSum += as; accN += an;
      exSince += r.losses.length * info.batchSize;
      chunk = Math.max(1, Math.min(10000, Math.round((200 * n) / Math.max(ms, 1e-3))));
      const atEval = o['eval-every'] > 0 && done % o['eval-every'] === 0;
      if (atEval || done % o['log-every'] === 0 || done === o.steps) line(atEval);
      await tick(); // lets a pending SIGINT run
    }
    if (lossN > 0) line(false); // the steps since the last line (interrupted or diverged)
    if (o['eval-every'] > 0 && lastEval !== done && done > 0 && !diverged && !interrupted) {
      print(`step ${String(done).padStart(w)}/${o.steps}${evaluate()}`); // the final evaluation
    }

    const steps = model.info().step;
    if (diverged) {
      const m = diverged.match(/diverged at step (\d+)/);
      const kept = steps > 0 ? (writeModel(model, o.out), `wrote the weights after step ${steps} to '${o.out}'`) : 'nothing was written';
      throw new RuntimeError(`training diverged${m ? ` at step ${m[1]}` : ''}; ${kept} (try a smaller --lr, or --clip 5)`);
    }
    const bytes = writeModel(model, o.out);
    print(`wrote ${o.out}: ${steps} steps, ${info.parameterCount.toLocaleString('en-US')} parameters, ` +
      `${(bytes / 1024).toFixed(0)} KiB; trained in ${duration(trainMs)} (total ${duration(Date.now() - start)})`);
    if (interrupted) {
      const e = new RuntimeError(`interrupted at step ${steps}; wrote the model so far to '${o.out}'`);
      e.exitCode = 130;
      throw e;
    }
  } finally {
    process.off('SIGINT', onSigint); // kept until the model is written
  }
}
