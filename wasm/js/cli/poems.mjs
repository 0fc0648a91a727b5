// `attention-lab train --task poems` (a character-level GPT on the Tang poems or --text FILE) and
// `attention-lab generate MODEL --prompt TEXT`. Training runs in train.mjs's loop (trainLoop),
// with the held-out loss beside the two baselines at each evaluation; the session (corpus,
// weights, Adam, sampler, step) is written to --out at the end, at checkpoints and on Ctrl-C.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createGpt, readGpt } from './session.mjs';
import { checkOut, checkRoom, readText, refuseOverwrite } from './files.mjs';
import { UsageError, checkTrainOptions } from './options.mjs';
import { statSync } from 'node:fs';
import { fixed, show, table, toJSON } from './format.mjs';
import { makeProgress } from './progress.mjs';
import { regularPoems } from '../gpt-form.mjs';
import { trainLoop } from './train.mjs';
import { errorMessage } from './messages.mjs';
/** @import { Print } from './format.mjs' */
/** @import { OptionValues } from './options.mjs' */
/** @import { Evaluation } from './progress.mjs' */
/**
 * @import {
 *  GptEvalResult, GptInfo, GptOnlyLab, GptSampleOptions, GptSession, GptSessionConfig
 * } from '../types/attention-lab.js'
 */

/** The corpora by --corpus: the file `npm run build:poems` extracts (scripts/poems.mjs), and for
 *  tang300-form (the recipe's, docs/gpt.md) only its poems with the form (gpt-form.mjs).
 * @type {Record<NonNullable<OptionValues<'train'>['corpus']>, { file: string, what: string }>} */
const CORPORA = {
  'tang300-form': { file: 'tang300', what: 'the regular Tang poems (绝句 and 律诗)' },
  tang300: { file: 'tang300', what: 'the Tang poems' },
  song100: { file: 'song100', what: 'the Song poems' },
};
const DEFAULT_CORPUS = 'tang300-form';
/** @param {string} name */
const corpusFile = (name) => fileURLToPath(new URL(`../../../build/poems/${name}.txt`, import.meta.url));

/** @param {OptionValues<'train'>} o */
function corpus(o) {
  if (o.text !== undefined) return readText(o.text, 'text');
  const { file, what } = CORPORA[o.corpus ?? DEFAULT_CORPUS];
  if (!existsSync(corpusFile(file))) {
    throw new UsageError(`${what} are not extracted (build/poems/${file}.txt): run \`npm run build:poems\`, or give your own --text FILE`);
  }
  const text = readText(corpusFile(file), `corpus ${file}`);
  return (o.corpus ?? DEFAULT_CORPUS) === 'tang300-form' ? regularPoems(text) : text;
}

/**
 * Options not given are left out: the session then takes the poems recipe's (docs/gpt.md).
 * @param {OptionValues<'train'>} o
 */
function configFrom(o) {
  /** @type {GptSessionConfig} */
  const c = { text: corpus(o), seed: o.seed };
  if (o['held-out'] !== undefined) c.heldOut = o['held-out'];
  if (o['block-size'] !== undefined) c.blockSize = o['block-size'];
  if (o.layers !== undefined) c.layers = o.layers;
  if (o.heads !== undefined) c.heads = o.heads;
  if (o['d-model'] !== undefined) c.dModel = o['d-model'];
  if (o.warmup !== undefined) c.warmup = o.warmup;
  if (o.batch !== undefined) c.batchSize = o.batch;
  if (o.lr !== undefined) c.learningRate = o.lr;
  if (o.windows !== undefined) c.windows = o.windows;
  // form drills are the poems' recipe: your own text trains on itself unless asked (docs/gpt.md)
  if (o.drills !== undefined) c.drills = o.drills;
  else if (o.text !== undefined) c.drills = 0;
  return c;
}

/**
 * The GPT's evaluate(): the loss per character beside the two baselines (docs/gpt.md).
 * @type {Evaluation<GptEvalResult>}
 */
const GPT_EVALUATION = {
  accuracy: false,
  json: (e) => e,
  text: (e) => (e.characters > 0
    ? `held-out: loss ${fixed(e.validationLoss)} (bigram ${fixed(e.bigramLoss)}, unigram ${fixed(e.unigramLoss)}; ${e.characters} characters)`
    : `training text: loss ${fixed(e.trainLoss)} (nothing held out)`),
};

/**
 * `attention-lab train --task poems`.
 * @param {GptOnlyLab} lab
 * @param {OptionValues<'train'>} o
 * @param {Print} print
 * @param {Set<keyof OptionValues<'train'>>} given
 */
export async function trainPoems(lab, o, print, given) {
  checkTrainOptions(o, given);
  refuseOverwrite(o.out, { text: o.text });
  checkOut(o.out);
  const session = createGpt(lab, configFrom(o), o.text);
  const info = session.info();
  checkRoom(o.out, session.save().byteLength);
  const c = info.config, k = info.corpus;
  const progress = makeProgress(o, c.batchSize, print, GPT_EVALUATION);
  progress.start(`training a GPT on ${o.text ?? CORPORA[o.corpus ?? DEFAULT_CORPUS].what} (${k.trainPoems} poems, ${k.trainCharacters} characters; ${k.heldOutPoems} ${k.heldOutPoems === 1 ? 'poem' : 'poems'} held out; ` +
    `${info.vocab.length} distinct characters): ${c.layers} layers, ${c.heads} heads, dModel ${c.dModel}, block ${c.blockSize}, ` +
    `${info.parameters.toLocaleString('en-US')} parameters; batch ${c.batchSize}${c.drills > 0 ? ` (${Math.round(100 * c.drills)}% form drills)` : ''}, lr ${c.learningRate}` +
    `${c.warmup > 0 ? ` (warm-up ${c.warmup} steps)` : ''}, seed ${c.seed}; ${o.steps} steps`,
  { fromStep: info.step, arch: 'gpt', task: 'poems', parameters: info.parameters, batchSize: c.batchSize, vocab: info.vocab.length, corpus: k });
  await trainLoop(session, o, progress, { evaluate: () => session.evaluate(), parameters: info.parameters, hint: 'try a smaller --lr or a --warmup' });
}

/**
 * Refuses sampling flags that would have no effect together.
 * @param {OptionValues<'generate'>} o
 * @param {Set<keyof OptionValues<'generate'>>} given
 * @param {string[]} positionals
 */
function checkGenerateOptions(o, given, positionals) {
  if (positionals.length !== 1) {
    throw new UsageError(positionals.length === 0 ? 'generate needs the model file: attention-lab generate MODEL --prompt TEXT'
      : `generate takes one model file, not ${positionals.length} (put the prompt in --prompt)`);
  }
  if (o.greedy) for (const n of /** @type {const} */ (['temperature', 'top-k', 'top-p', 'seed'])) if (given.has(n)) throw new UsageError(`--${n} does not apply with --greedy (no sampling)`);
  if (o['top-p'] !== undefined && o['top-p'] > 1) throw new UsageError(`--top-p must be in (0, 1] (got '${o['top-p']}')`);
}

/**
 * @param {GptOnlyLab} lab
 * @param {OptionValues<'generate'>} o
 * @param {string[]} positionals
 * @param {Print} print
 * @param {Set<keyof OptionValues<'generate'>>} given
 */
export function generate(lab, o, positionals, print, given) {
  checkGenerateOptions(o, given, positionals);
  const session = readGpt(lab, positionals[0]);
  /** @type {GptSampleOptions} */
  const options = { maxNewTokens: o['max-new-tokens'], greedy: o.greedy, seed: o.seed, topCandidates: o.candidates };
  if (o.temperature !== undefined) options.temperature = o.temperature;
  if (o['top-k'] !== undefined) options.topK = o['top-k'];
  if (o['top-p'] !== undefined) options.topP = o['top-p'];
  let r;
  try {
    r = session.sample(o.prompt, options);
  } catch (e) {
    throw new UsageError(errorMessage(e).replace(/^prompt\b/, '--prompt'));
  }
  if (o.json) return print(toJSON({ text: r.text, generated: r.generated, steps: r.steps }));
  print(r.text);
  if (o.candidates === 0) return;
  print('');
  print(table([['step', 'char', 'prob', `top ${o.candidates}`],
    ...r.steps.map((s, i) => [String(i + 1), show(s.char), s.prob.toFixed(3), s.top.map((t) => `${show(t.char)} ${t.prob.toFixed(3)}`).join('  ')])], 'rlrl')
    .map((l) => `  ${l}`).join('\n'));
}

/**
 * `attention-lab info --model M` for a GPT: the model, its corpus and its training settings.
 * @param {OptionValues<'info'>} o
 * @param {GptInfo} i
 * @param {Print} print
 */
export function gptInfo(o, i, print) {
  const c = i.config, k = i.corpus;
  print(table([
    ['file', `${o.model} (${(statSync(o.model).size / 1024).toFixed(0)} KiB)`],
    ['model', `GPT: ${c.layers} layers, ${c.heads} heads, dModel ${c.dModel}, block ${c.blockSize} characters`],
    ['vocabulary', `${i.vocab.length} characters`],
    ['corpus', `${k.poems} poems: ${k.trainPoems} for training (${k.trainCharacters} characters), ${k.heldOutPoems} held out (${k.heldOutCharacters} characters)`],
    ['parameters', i.parameters.toLocaleString('en-US')],
    ['steps trained', i.step.toLocaleString('en-US')],
    ['batch size', String(c.batchSize)],
    ['form drills', c.drills > 0 ? `${Math.round(100 * c.drills)}% of the windows` : 'none'],
    ['learning rate', String(Number(c.learningRate.toPrecision(6)))],
    ['warm-up', c.warmup > 0 ? `${c.warmup} steps` : 'none'],
    ['seed', String(c.seed)],
  ], 'll').join('\n'));
}

/**
 * `attention-lab evaluate --model M` for a GPT: the held-out loss per character beside the two baselines.
 * @param {GptSession} model
 * @param {OptionValues<'evaluate'>} o
 * @param {Print} print
 */
export function gptEvaluate(model, o, print) {
  for (const flag of /** @type {const} */ (['pairs', 'length', 'count'])) {
    if (o[flag] !== undefined) throw new UsageError(`--${flag} does not apply to a GPT model (it is evaluated on its held-out poems)`);
  }
  const e = model.evaluate();
  const bits = (/** @type {number} */ nats) => nats / Math.LN2;
  if (o.json) return print(toJSON({ arch: 'gpt', step: model.info().step, ...e, bitsPerCharacter: e.characters > 0 ? bits(e.validationLoss) : null }));
  const set = e.characters > 0 ? `its ${e.characters} held-out characters` : 'its training text (nothing was held out)';
  print(`GPT after ${model.info().step} steps, on ${set}, in nats per character (bits):`);
  const row = (/** @type {string} */ name, /** @type {number} */ nats, /** @type {string} */ what) => [name, `${fixed(nats)}  (${bits(nats).toFixed(3)} bits)  ${what}`];
  print(table([
    ...(e.characters > 0 ? [row('loss', e.validationLoss, 'the model, each block read from an empty context')] : []),
    row('training text', e.trainLoss, 'as many characters of the text it trained on'),
    ...(e.characters > 0 ? [
      row('bigram', e.bigramLoss, 'baseline: the previous character, add-one smoothed, fitted on the training text'),
      row('unigram', e.unigramLoss, 'baseline: character frequencies alone'),
    ] : []),
  ], 'll').map((l) => `  ${l}`).join('\n'));
}
