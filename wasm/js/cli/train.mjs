// `attention-lab train`: the translators' settings (the GPT's: poems.mjs), and the training loop
// that every model shares (trainLoop): short chunks (about 0.2 s each) so that Ctrl-C is noticed
// between two Adam steps; a progress line every --log-every steps and a held-out evaluation every
// --eval-every steps; the model written at the end, on Ctrl-C, or after divergence (the weights of
// the last good step).
import { createModel, isSession, readModel, release, writeModel } from './session.mjs';
import { checkOut, checkRoom, readText, refuseOverwrite } from './files.mjs';
import { RuntimeError, UsageError, checkTrainOptions } from './options.mjs';
import { makeProgress, TRANSLATOR_EVALUATION } from './progress.mjs';
import { errorMessage } from './messages.mjs';
import { RNN_TASK_DEFAULTS, trainingDefaults } from '../task-defaults.mjs';
/** @import { Print } from './format.mjs' */
/** @import { OptionValues } from './options.mjs' */
/** @import { Progress } from './progress.mjs' */
/** @import { Session, SessionInfo } from './session.mjs' */
/** @import { RnnTask } from '../task-defaults.mjs' */
/**
 * @import {
 *  AttentionLab, Seq2SeqConfig, Seq2SeqPairsOptions, TrainResult, TransformerSeq2SeqConfig
 * } from '../types/attention-lab.js'
 */

/** @returns {Promise<void>} */
const tick = () => new Promise((r) => setImmediate(r));

/**
 * The translator's task: --pairs, or else --task (checkTrainOptions has made one of them given
 * when there is no --from, and sent --task poems to the GPT).
 * @param {OptionValues<'train'>} o
 * @returns {RnnTask}
 */
const taskOf = (o) => (o.pairs === undefined ? /** @type {RnnTask} */ (o.task) : 'pairs');

/**
 * --task or --pairs FILE (read here: a file that cannot be read, or is not UTF-8, is a usage error naming it).
 * @param {OptionValues<'train'>} o
 * @returns {Seq2SeqPairsOptions & { task: RnnTask }}
 */
function taskFrom(o) {
  if (o.pairs === undefined) return { task: taskOf(o) };
  /** @type {Seq2SeqPairsOptions & { task: RnnTask }} */
  const c = { task: 'pairs', pairs: readText(o.pairs, 'pairs'), tokenize: o.tokenize };
  if (o['held-out'] !== undefined) c.heldOut = o['held-out'];
  return c;
}

/**
 * Options not given are left out: the session then takes its default for the task.
 * @param {OptionValues<'train'>} o
 */
function transformerConfigFrom(o) {
  if (o['norm-first'] && o['post-norm']) throw new UsageError('--norm-first and --post-norm exclude each other');
  /** @type {TransformerSeq2SeqConfig} */
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

/**
 * A setting not given is the task's in the one table of defaults that the page reads too.
 * @param {OptionValues<'train'>} o
 * @returns {Seq2SeqConfig | TransformerSeq2SeqConfig}
 */
function configFrom(o) {
  if (o.arch === 'transformer') return transformerConfigFrom(o);
  if (o['attentional-tanh'] && o.attention === 'none') throw new UsageError('--attentional-tanh needs attention (not --attention none)');
  if (o['attentional-tanh'] && o['no-attentional-tanh']) throw new UsageError('--attentional-tanh and --no-attentional-tanh exclude each other');
  if (o['no-attentional-tanh'] && o.attention === 'none') throw new UsageError('--no-attentional-tanh has no effect with --attention none (there is no attention to refine)');
  const task = taskOf(o);
  const d = RNN_TASK_DEFAULTS[task];
  const attention = o.attention !== 'none';
  /** @type {Seq2SeqConfig} */
  const c = { ...taskFrom(o), cell: o.cell ?? d.cell, hidden: o.hidden ?? d.hidden, attention, seed: o.seed,
    learningRate: o.lr ?? d.learningRate };
  const t = trainingDefaults(task, attention);
  if (o.attention !== 'none') c.score = o.attention;
  if (o.embedding > 0) c.embedding = o.embedding;
  if (o['attentional-tanh'] || (t.attentionalTanh && !o['no-attentional-tanh'])) c.attentionalTanh = true;
  const batch = o.batch ?? t.batchSize;
  if (batch !== undefined) c.batchSize = batch;
  const clip = o.clip ?? t.clipNorm ?? 0;
  if (clip > 0) c.clipNorm = clip;
  return c;
}

/**
 * The first line of a run: the model, its size and the training settings.
 * @param {SessionInfo} info
 * @param {OptionValues<'train'>} o
 */
function summary(info, o) {
  if (o.from !== undefined) return `continuing ${o.from} after step ${info.step}: ${newSummary(info, o)}`;
  return newSummary(info, o);
}

/**
 * @param {SessionInfo} info
 * @param {OptionValues<'train'>} o
 */
function newSummary(info, o) {
  const params = `${info.parameterCount.toLocaleString('en-US')} parameters`;
  const task = info.pairs ? `${o.pairs ?? 'pairs'} (${info.pairs.trainPairs} pairs, ${info.pairs.heldOutPairs} held out, ${info.pairs.tokenize})` : info.task;
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

/**
 * Token accuracy of a train() result as [sum, count]; the field may be absent, a number or per step.
 * @param {{ tokenAccuracy?: number | (ArrayLike<number> & Iterable<number>) }} r
 * @param {number} steps
 * @returns {[number, number]}
 */
function accuracyOf(r, steps) {
  const a = r.tokenAccuracy;
  if (typeof a === 'number' && Number.isFinite(a)) return [a * steps, steps];
  if (a && typeof a !== 'number' && typeof a.length === 'number') {
    let s = 0, n = 0;
    for (const x of a) if (Number.isFinite(x)) { s += x; ++n; }
    return [s, n];
  }
  return [0, 0];
}

/**
 * The model to train: a new one from the options, or the one in --from (an .atlb training file).
 * @param {AttentionLab} lab
 * @param {OptionValues<'train'>} o
 * @returns {Session}
 */
function modelFrom(lab, o) {
  if (o.from !== undefined) {
    const model = readModel(lab, o.from, 'from');
    if (!isSession(model)) {
      throw new UsageError(`--from '${o.from}' is a .safetensors file: it has no task and no Adam state to continue from (continue a file written by attention-lab train)`);
    }
    return model;
  }
  const config = configFrom(o);
  try {
    return createModel(lab, config);
  } catch (e) {
    // The core names the line; the file's name makes it findable.
    if (config.task === 'pairs') throw new UsageError(`--pairs '${o.pairs}': ${errorMessage(e)}`);
    throw e;
  }
}

/**
 * `attention-lab train` of a translator (--task poems: poems.mjs's trainPoems).
 * @param {AttentionLab} lab
 * @param {OptionValues<'train'>} o
 * @param {Print} print
 * @param {Set<keyof OptionValues<'train'>>} given
 */
export async function train(lab, o, print, given) {
  checkTrainOptions(o, given);
  refuseOverwrite(o.out, { pairs: o.pairs, from: o.from });
  checkOut(o.out);
  const model = modelFrom(lab, o);
  const info = model.info();
  checkRoom(o.out, model.save().byteLength); // the exact size of the file, before any training
  const progress = makeProgress(o, info.batchSize, print, TRANSLATOR_EVALUATION);
  progress.start(summary(info, o), { fromStep: info.step, arch: info.arch ?? 'rnn', task: info.task, parameters: info.parameterCount, batchSize: info.batchSize });
  await trainLoop(model, o, progress, {
    evaluate: () => model.evaluate(o['eval-examples'] > 0 ? { maxExamples: o['eval-examples'] } : undefined),
    accuracy: accuracyOf,
    parameters: info.parameterCount,
    hint: 'try a smaller --lr, or --clip 5',
  });
}

/**
 * Trains `model` (a session: train(n), info().step, save()) o.steps steps in chunks of about 0.2 s,
 * so that a signal is noticed between two steps; a progress line every --log-every steps and
 * `evaluate()` every --eval-every; the model written to --out at --checkpoint-every, at the end,
 * after Ctrl-C or SIGTERM, and after divergence (the weights of the last good step; `hint` says
 * what to try). `accuracy(result, steps)`: the token accuracy of a train() result as [sum, count].
 * @template E
 * @param {{ train(steps: number): TrainResult, info(): { step: number }, save(): Uint8Array }} model
 * @param {OptionValues<'train'>} o
 * @param {Progress<E>} progress
 * @param {{ evaluate: () => E, accuracy?: (result: TrainResult, steps: number) => [number, number], parameters: number, hint: string }} how
 */
export async function trainLoop(model, o, progress, { evaluate: evaluateModel, accuracy = () => [0, 0], parameters, hint }) {
  // Ctrl-C (SIGINT), and SIGTERM as `kill`, `timeout` and job schedulers send it, stop after the
  // current step and write the model; the exit code is 128 + the signal's number, as a shell's.
  // (typed by a cast: the handler sets it, which the loop's checks below cannot see)
  let interrupted = /** @type {{ code: number, what: string } | null} */ (null);
  const onSignal = (/** @type {NodeJS.Signals} */ signal) => {
    const code = signal === 'SIGTERM' ? 143 : 130;
    if (interrupted) { // a second signal: stop now (the model file is written atomically, never half)
      release();
      process.exit(code);
    }
    interrupted = { code, what: signal === 'SIGTERM' ? 'stopped by SIGTERM' : 'interrupted' };
    process.stderr.write(`\nattention-lab: ${interrupted.what}; saving the model after the current step (Ctrl-C again to quit without saving)\n`);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  const start = Date.now();
  let done = 0, chunk = 1, lastEval = -1, diverged = /** @type {string | null} */ (null);
  const every = (/** @type {number} */ n) => (n > 0 ? (Math.floor(done / n) + 1) * n : Infinity);
  const at = (/** @type {number} */ n) => n > 0 && done % n === 0;
  const evaluate = () => {
    try {
      lastEval = done;
      return evaluateModel();
    } catch (e) {
      throw new RuntimeError(`evaluation failed: ${errorMessage(e)}`);
    }
  };

  // A checkpoint that cannot be written (the disk filled up since the check) leaves the previous
  // file as it was; training goes on, and the final write reports the error if it persists.
  const checkpoint = (/** @type {number} */ at) => {
    try {
      progress.checkpoint(at, writeModel(model, o.out));
    } catch (e) {
      process.stderr.write(`attention-lab: checkpoint at step ${at} not written (${errorMessage(e)}); training goes on\n`);
    }
  };

  try {
    while (done < o.steps && !interrupted) {
      const n = Math.max(1, Math.min(chunk, o.steps - done, every(o['log-every']) - done, every(o['eval-every']) - done,
        every(o['checkpoint-every'] ?? 0) - done));
      const t0 = performance.now();
      let r;
      try {
        r = model.train(n);
      } catch (e) {
        const error = /** @type {Error & { completed?: TrainResult }} */ (e); // a TrainDivergedError has `completed`
        if (!/diverged/.test(error.message)) throw new RuntimeError(`training failed: ${error.message}`);
        diverged = error.message;
        const before = error.completed?.losses ?? []; // the steps before it
        done += before.length;
        progress.steps(before, [0, 0], 0);
        break;
      }
      const ms = performance.now() - t0;
      done += r.losses.length;
      progress.steps(r.losses, accuracy(r, r.losses.length), ms);
      chunk = Math.max(1, Math.min(10000, Math.round((200 * n) / Math.max(ms, 1e-3))));
      const atEval = at(o['eval-every']);
      if (atEval || at(o['log-every']) || done === o.steps) progress.line(done, atEval ? evaluate() : null);
      else progress.live(done);
      if (at(o['checkpoint-every'] ?? 0) && done < o.steps) checkpoint(done);
      await tick(); // lets a pending SIGINT run
    }
    progress.flush(done); // the steps since the last line (interrupted or diverged)
    if (o['eval-every'] > 0 && lastEval !== done && done > 0 && !diverged && !interrupted) progress.line(done, evaluate(), true);

    const steps = model.info().step;
    if (diverged) {
      const m = diverged.match(/diverged at step (\d+)/);
      const kept = done > 0 ? (writeModel(model, o.out), `wrote the weights after step ${steps} to '${o.out}'`) : 'nothing was written';
      throw new RuntimeError(`training diverged${m ? ` at step ${m[1]}` : ''}; ${kept} (${hint})`);
    }
    const bytes = writeModel(model, o.out);
    progress.done(o.out, steps, bytes, Date.now() - start, parameters);
    if (interrupted) {
      throw Object.assign(new RuntimeError(`${interrupted.what} at step ${steps}; wrote the model so far to '${o.out}'`), { exitCode: interrupted.code });
    }
  } finally {
    process.off('SIGINT', onSignal); // kept until the model is written
    process.off('SIGTERM', onSignal);
  }
}
