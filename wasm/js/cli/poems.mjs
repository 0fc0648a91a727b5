// `attention-lab train --task poems` (a character-level GPT on the Tang poems or --text FILE) and
// `attention-lab generate MODEL --prompt TEXT`. Training runs in short chunks, as train.mjs's, so
// that Ctrl-C is noticed between two steps; a progress line every --log-every steps and the
// held-out loss beside the bigram baseline every --eval-every steps; the session (corpus,
// weights, Adam, sampler, step) is written to --out at the end, at checkpoints and on Ctrl-C.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createGpt, readGpt, release, writeModel } from './session.mjs';
import { checkOut, checkRoom, readText, refuseOverwrite } from './files.mjs';
import { RuntimeError, UsageError } from './options.mjs';
import { duration, fixed, show, table, toJSON } from './format.mjs';

const POEMS = fileURLToPath(new URL('../../../build/poems/tang300.txt', import.meta.url));
const tick = () => new Promise((r) => setImmediate(r));

function corpus(o) {
  if (o.text !== undefined) return readText(o.text, 'text');
  if (!existsSync(POEMS)) {
    throw new UsageError('the Tang poems are not extracted (build/poems/tang300.txt): run `npm run build:poems`, or give your own --text FILE');
  }
  return readText(POEMS, 'task poems');
}

// Options not given are left out: the session then takes the poems recipe's (docs/gpt.md).
function configFrom(o) {
  const c = { text: corpus(o), seed: o.seed };
  const keys = { 'held-out': 'heldOut', 'block-size': 'blockSize', layers: 'layers', heads: 'heads', 'd-model': 'dModel',
    warmup: 'warmup', batch: 'batchSize', lr: 'learningRate' };
  for (const [flag, key] of Object.entries(keys)) if (o[flag] !== undefined) c[key] = o[flag];
  return c;
}

function evalText(e) {
  return e.characters > 0
    ? `held-out: loss ${fixed(e.validationLoss)} (bigram ${fixed(e.bigramLoss)}, unigram ${fixed(e.unigramLoss)}; ${e.characters} characters)`
    : `training text: loss ${fixed(e.trainLoss)} (nothing held out)`;
}

export async function trainPoems(lab, o, print) {
  refuseOverwrite(o.out, { text: o.text });
  checkOut(o.out);
  const session = createGpt(lab, configFrom(o), o.text);
  const info = session.info();
  checkRoom(o.out, session.save().byteLength);
  const json = o.progress === 'json', quiet = o.progress === 'none';
  const say = (text, event) => { if (json) print(JSON.stringify(event)); else if (!quiet) print(text); };
  const c = info.config, k = info.corpus;
  say(`training a GPT on ${o.text ?? 'the Tang poems'} (${k.trainPoems} poems, ${k.trainCharacters} characters; ${k.heldOutPoems} ${k.heldOutPoems === 1 ? 'poem' : 'poems'} held out; ` +
    `${info.vocab.length} distinct characters): ${c.layers} layers, ${c.heads} heads, dModel ${c.dModel}, block ${c.blockSize}, ` +
    `${info.parameters.toLocaleString('en-US')} parameters; batch ${c.batchSize}, lr ${c.learningRate}` +
    `${c.warmup > 0 ? ` (warm-up ${c.warmup} steps)` : ''}, seed ${c.seed}; ${o.steps} steps`,
  { event: 'start', steps: o.steps, parameters: info.parameters, vocab: info.vocab.length, corpus: k });

  let interrupted = false;
  const onSigint = () => {
    if (interrupted) { release(); process.exit(130); }
    interrupted = true;
    process.stderr.write('\nattention-lab: interrupted; saving the model after the current step (Ctrl-C again to quit without saving)\n');
  };
  process.on('SIGINT', onSigint);
  const start = Date.now();
  let done = 0, chunk = 1, lossSum = 0, lossN = 0, trainMs = 0, diverged = null;
  const next = (n) => (n > 0 ? (Math.floor(done / n) + 1) * n : Infinity);
  const at = (n) => n > 0 && done % n === 0;
  const line = (ev) => {
    const loss = lossN ? lossSum / lossN : NaN;
    const rate = trainMs > 0 ? (done * 1000) / trainMs : 0;
    say(`step ${String(done).padStart(String(o.steps).length)}/${o.steps}  loss ${fixed(loss)}${ev ? ` | ${evalText(ev)}` : ''} | ${rate.toFixed(1)} steps/s`,
      { event: 'progress', step: done, steps: o.steps, loss: lossN ? loss : null, stepsPerSecond: Number(rate.toFixed(2)), ...(ev ? { evaluation: ev } : {}) });
    lossSum = lossN = 0;
  };
  try {
    while (done < o.steps && !interrupted) {
      const n = Math.max(1, Math.min(chunk, o.steps - done, next(o['log-every']) - done, next(o['eval-every']) - done,
        next(o['checkpoint-every'] ?? 0) - done));
      const t0 = performance.now();
      let r;
      try {
        r = session.train(n);
      } catch (e) {
        if (!/diverged/.test(e.message)) throw new RuntimeError(`training failed: ${e.message}`);
        diverged = e.message;
        done += e.completed?.losses.length ?? 0;
        break;
      }
      const ms = performance.now() - t0;
      trainMs += ms;
      done += r.losses.length;
      for (const l of r.losses) { lossSum += l; ++lossN; }
      chunk = Math.max(1, Math.min(10000, Math.round((200 * n) / Math.max(ms, 1e-3))));
      const atEval = at(o['eval-every']) || (done === o.steps && o['eval-every'] > 0);
      if (atEval || at(o['log-every']) || done === o.steps) line(atEval ? session.evaluate() : null);
      if (at(o['checkpoint-every'] ?? 0) && done < o.steps) writeModel(session, o.out);
      await tick(); // lets a pending SIGINT run
    }
    const steps = session.info().step;
    if (diverged) {
      const kept = steps > 0 ? (writeModel(session, o.out), `wrote the weights after step ${steps} to '${o.out}'`) : 'nothing was written';
      throw new RuntimeError(`training diverged; ${kept} (try a smaller --lr or a --warmup)`);
    }
    const bytes = writeModel(session, o.out);
    say(`wrote ${o.out}: ${steps} steps, ${(bytes / 1024).toFixed(0)} KiB; trained in ${duration(trainMs)} (total ${duration(Date.now() - start)})`,
      { event: 'done', file: o.out, step: steps, bytes, trainSeconds: trainMs / 1000 });
    if (interrupted) {
      const e = new RuntimeError(`interrupted at step ${steps}; wrote the model so far to '${o.out}'`);
      e.exitCode = 130;
      throw e;
    }
  } finally {
    process.off('SIGINT', onSigint);
  }
}

/** Refuses sampling flags that would have no effect together. */
function checkGenerateOptions(o, given, positionals) {
  if (positionals.length !== 1) {
    throw new UsageError(positionals.length === 0 ? 'generate needs the model file: attention-lab generate MODEL --prompt TEXT'
      : `generate takes one model file, not ${positionals.length} (put the prompt in --prompt)`);
  }
  if (o.greedy) for (const n of ['temperature', 'top-k', 'top-p', 'seed']) if (given.has(n)) throw new UsageError(`--${n} does not apply with --greedy (no sampling)`);
  if (o['top-p'] !== undefined && o['top-p'] > 1) throw new UsageError(`--top-p must be in (0, 1] (got '${o['top-p']}')`);
}

export function generate(lab, o, positionals, print, given) {
  checkGenerateOptions(o, given, positionals);
  const session = readGpt(lab, positionals[0]);
  const options = { maxNewTokens: o['max-new-tokens'], greedy: o.greedy, seed: o.seed, topCandidates: o.candidates };
  if (o.temperature !== undefined) options.temperature = o.temperature;
  if (o['top-k'] !== undefined) options.topK = o['top-k'];
  if (o['top-p'] !== undefined) options.topP = o['top-p'];
  let r;
  try {
    r = session.sample(o.prompt, options);
  } catch (e) {
    throw new UsageError(e.message.replace(/^prompt\b/, '--prompt'));
  }
  if (o.json) return print(toJSON({ text: r.text, generated: r.generated, steps: r.steps }));
  print(r.text);
  if (o.candidates === 0) return;
  print('');
  print(table([['step', 'char', 'prob', `top ${o.candidates}`],
    ...r.steps.map((s, i) => [String(i + 1), show(s.char), s.prob.toFixed(3), s.top.map((t) => `${show(t.char)} ${t.prob.toFixed(3)}`).join('  ')])], 'rlrl')
    .map((l) => `  ${l}`).join('\n'));
}
