// `attention-lab translate`, `evaluate` and `info` (train is in train.mjs; a GPT's evaluate and
// info are in poems.mjs).
import { statSync } from 'node:fs';
import { readAnyModel, readModel } from './session.mjs';
import { gptEvaluate, gptInfo } from './poems.mjs';
import { checkOut, checkRoom, refuseOverwrite, writeAtomic } from './files.mjs';
import { RuntimeError, UsageError } from './options.mjs';
import { evaluatePairs, translateLines } from './batch.mjs';
import { attentionTable, fixed, pct, show, table, toJSON } from './format.mjs';
import { attributionOptions, interventionsOf, printAttribution, printIntervention } from './why.mjs';
import { errorMessage } from './messages.mjs';
/** @import { Print } from './format.mjs' */
/** @import { OptionValues } from './options.mjs' */
/** @import { SessionInfo } from './session.mjs' */
/** @import { CliIntervention, Intervened } from './why.mjs' */
/**
 * @import {
 *  AttentionLab, AttentionMaps, BeamHypothesis, BeamNode, EvaluateOptions, EvaluateResult,
 *  ImportedTransformerInfo, TokenProb, TranslateOptions, TranslateResult, TransformerSeq2SeqInfo,
 *  TransformerTranslateResult, TranslationAttribution
 * } from '../types/attention-lab.js'
 */

/**
 * A decoding step as the tables show it: a greedy step or a beam node, with a Transformer's
 * cross-attention where the model is one.
 * @typedef {{ token: string, prob: number, top: TokenProb[], attention: Float32Array, cross?: AttentionMaps }} TraceStep
 */

/** @param {number} x */
const f32 = (x) => Number(x.toPrecision(6)); // 0.0010000000474974513 → 0.001

/** @param {TokenProb[]} top */
function topText(top) {
  return top.map((t) => `${show(t.token)} ${t.prob.toFixed(3)}`).join('  ');
}

/**
 * The best hypothesis's nodes, root first, from the beam tree.
 * @param {{ steps: BeamNode[][] }} beams
 * @param {BeamHypothesis} hyp
 */
function beamPath(beams, hyp) {
  /** @type {BeamNode[]} */
  const path = [];
  for (let t = hyp.step, n = hyp.node; t >= 0 && n >= 0; n = beams.steps[t][n].parent, --t) path.unshift(beams.steps[t][n]);
  return path;
}

/**
 * A Transformer's attention: the cross-attention of every decoder layer and head (rows: output
 * tokens, columns: source tokens), then the rollout of all layers onto the source.
 * @param {{ layers: number, heads: number }} info
 * @param {string[]} labels
 * @param {(TraceStep & { cross: AttentionMaps })[]} steps
 * @param {Pick<OptionValues<'translate'>, 'shade'>} o
 * @param {Print} print
 */
function printTransformerAttention(info, labels, steps, o, print) {
  const S = labels.length, outputs = steps.map((s) => s.token);
  for (let l = 0; l < info.layers; ++l) {
    for (let h = 0; h < info.heads; ++h) {
      const rows = steps.map((s) => s.cross.data.subarray((l * info.heads + h) * S, (l * info.heads + h + 1) * S));
      print(`cross-attention, layer ${l + 1} of ${info.layers}, head ${h + 1} of ${info.heads} (rows: output tokens, columns: source tokens):`);
      print(attentionTable(labels, outputs, rows, { shades: o.shade }).map((line) => `  ${line}`).join('\n'));
      print('');
    }
  }
  print('attention rollout onto the source (all layers, heads averaged, residuals as 0.5·I; ' +
    'each row plus its rollout onto the output prefix sums to 1):');
  print(attentionTable(labels, outputs, steps.map((s) => s.attention), { shades: o.shade }).map((line) => `  ${line}`).join('\n'));
}

/**
 * Refuses the options of `translate` that would have no effect together (`given`: the flags typed).
 * @param {OptionValues<'translate'>} o
 * @param {Set<keyof OptionValues<'translate'>>} given
 * @param {string[]} positionals
 */
function checkTranslateOptions(o, given, positionals) {
  const refuse = (/** @type {string} */ message) => { throw new UsageError(message); };
  if (given.has('input') && positionals.length > 0) refuse('give one sentence or --input FILE, not both');
  if (!given.has('input') && positionals.length === 0) refuse('translate needs a sentence, e.g. attention-lab translate --model FILE "咖哥 喜欢 小冰", or --input FILE');
  for (const n of /** @type {const} */ (['force-attention', 'force-token'])) if (given.has(n) && given.has('input')) refuse(`--${n} applies to one sentence, not to --input`);
  if (given.has('shade') && (o.json || given.has('input'))) refuse(`--shade applies to the text tables of one sentence, not to ${o.json ? '--json' : '--input'}`);
  for (const n of /** @type {const} */ (['top-k', 'attribution'])) {
    if (given.has(n) && given.has('input') && !o.json) refuse(`--${n} with --input needs --json (without it, --input prints only the translations)`);
  }
  if (given.has('ig-steps') && o.attribution !== 'integrated-gradients') refuse('--ig-steps applies to --attribution integrated-gradients only');
  if (o.attribution && o.beam !== undefined) refuse('--attribution explains the greedy translation: leave out --beam');
  if (given.has('length-alpha') && o.beam === undefined) refuse("--length-alpha scores beam search's hypotheses: give --beam too");
}

/**
 * --force-token's words must be words the model writes (named as typed, steps from 1).
 * @param {{ targetVocabulary(): string[] }} model
 * @param {Pick<OptionValues<'translate'>, 'force-token'>} o
 */
function checkForcedWords(model, o) {
  if (o['force-token'].length === 0) return;
  const words = new Set(model.targetVocabulary());
  for (const { step, value } of o['force-token']) {
    if (!words.has(value)) throw new UsageError(`--force-token ${step}:${value}: '${value}' is not a word this model can write`);
  }
}

/**
 * @param {AttentionLab} lab
 * @param {OptionValues<'translate'>} o
 * @param {string[]} positionals
 * @param {Print} print
 * @param {Set<keyof OptionValues<'translate'>>} given
 */
export async function translate(lab, o, positionals, print, given) {
  checkTranslateOptions(o, given, positionals);
  const sentence = positionals.join(' ');
  if (!given.has('input') && sentence.trim() === '') throw new UsageError('the sentence is empty');
  const model = readModel(lab, o.model);
  const info = model.info();
  /** @type {TranslateOptions} */
  const options = { topK: Math.min(o['top-k'], info.targetVocabSize) };
  if (o.beam !== undefined) options.beam = o.beam;
  if (o['length-alpha'] !== undefined) options.lengthAlpha = o['length-alpha'];
  if (o['max-length'] !== undefined) options.maxLength = o['max-length'];
  /** @type {((sentence: string) => TranslationAttribution) | null} */
  let attribute = null;
  if (o.attribution) {
    if (!('attribution' in model)) {
      throw new UsageError('--attribution: a model read from .safetensors cannot be attributed yet (models trained here can, recurrent or Transformer)');
    }
    const attributing = attributionOptions(o, options.maxLength);
    attribute = (sentence) => model.attribution(sentence, attributing);
  }
  if (o.input !== undefined) return translateLines(model, o.input, o, options, attribute, print);
  const asking = o['force-attention'].length > 0 || o['force-token'].length > 0;
  if (asking && o.beam !== undefined) throw new UsageError('--force-attention and --force-token need greedy decoding: leave out --beam');
  checkForcedWords(model, o);
  /** @type {TranslateResult | TransformerTranslateResult} */
  let r;
  /** @type {CliIntervention[] | undefined} */
  let interventions;
  /** @type {TranslationAttribution | undefined} */
  let attribution;
  try {
    r = model.translate(sentence, options);
    if (asking) {
      interventions = interventionsOf(o, r);
      r = model.translate(sentence, { ...options, interventions });
    }
    if (attribute) attribution = attribute(sentence);
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new UsageError(errorMessage(e)); // main() puts it in the command line's words
  }
  if (o.json) return print(toJSON(attribution ? { ...r, attribution } : r));

  /** @type {TraceStep[]} */
  const steps = r.beams ? beamPath(r.beams, r.beams.hypotheses[0]) : /** @type {TraceStep[]} */ (r.steps); // greedy decoding: a step a token
  const unknown = r.source.some((t) => t.unknown);
  const labels = r.source.map((t) => show(t.text) + (t.unknown ? '*' : ''));
  // with interventions, translate() decodes greedily beside the plain translation
  if (interventions) printIntervention(/** @type {Intervened} */ (r), interventions, labels, print);
  else print(r.text === '' ? '(empty translation)' : r.text);
  if (!r.finished) print(`(no <eos> within ${steps.length} tokens: the translation is cut off; see --max-length)`);
  print('');
  print(`source (${info.sourceTokenizer}, ${r.source.length} tokens): ${labels.join(' ')}` +
    (unknown ? '\n  * unknown: not in the vocabulary, encoded as <unk>' : ''));
  print('');
  print(r.beams ? `decoding: beam search, width ${r.beams.width}; the best hypothesis, step by step:`
    : interventions ? 'decoding: greedy, intervened, with the model\'s own candidates at each step' : 'decoding: greedy');
  print(table([['step', 'token', 'prob', `top ${options.topK}`],
    ...steps.map((s, i) => [String(i + 1), show(s.token), s.prob.toFixed(3), topText(s.top)])], 'rlrl').map((l) => `  ${l}`).join('\n'));
  print('');
  if (info.arch === 'transformer') {
    // a Transformer's steps carry every layer's and head's cross-attention
    printTransformerAttention(info, labels, /** @type {(TraceStep & { cross: AttentionMaps })[]} */ (steps), o, print);
  } else if (!info.attention) {
    print('attention: none (the model was trained with --attention none)');
  } else {
    print(`attention${interventions ? ' of the intervened decoding' : ''} (rows: output tokens, columns: source tokens; each row sums to 1):`);
    print(attentionTable(labels, steps.map((s) => s.token), steps.map((s) => s.attention), { shades: o.shade })
      .map((l) => `  ${l}`).join('\n'));
  }
  if (attribution) printAttribution(attribution, labels, info.arch, print);
  if (r.beams) {
    print('');
    print(`hypotheses (best first; score = log-probability / length^${options.lengthAlpha ?? 1}, length counting <eos>; see --length-alpha):`);
    print(table([['#', 'score', 'log-prob', 'finished', 'text'],
      ...r.beams.hypotheses.map((h, i) => [String(i + 1), h.score.toFixed(4), h.logProb.toFixed(4), h.finished ? 'yes' : 'no',
        h.text === '' ? '(empty)' : h.text])], 'rrrll').map((l) => `  ${l}`).join('\n'));
  }
}

/**
 * @param {AttentionLab} lab
 * @param {OptionValues<'evaluate'>} o
 * @param {Print} print
 */
export function evaluate(lab, o, print) {
  if (o.length !== undefined && o.pairs !== undefined) throw new UsageError('--length and --pairs exclude each other');
  if (o.length === undefined && o.seed !== undefined) throw new UsageError('--seed only applies with --length');
  const { gpt, model } = readAnyModel(lab, o.model);
  if (gpt) return gptEvaluate(model, o, print);
  if (o.pairs !== undefined) return evaluatePairs(model, o.pairs, o, print);
  const info = model.info();
  if (info.format === 'safetensors') {
    throw new UsageError(`--model '${o.model}' is a .safetensors file: it has no task and no held-out set; evaluate it on your own pairs with --pairs FILE`);
  }
  if (o.length !== undefined && (o.count ?? 0) > 10000) throw new UsageError(`--count with --length must be at most 10000 (got ${o.count})`);
  if (o.length !== undefined && !['reverse', 'copy'].includes(info.task)) {
    throw new UsageError(`--length applies to the reverse and copy tasks only (this model is a ${info.task} model)`);
  }
  /** @type {EvaluateOptions | undefined} */
  let options;
  if (o.length !== undefined) options = { length: o.length, count: o.count ?? 200, seed: o.seed ?? 1 };
  else if (o.count !== undefined) options = { maxExamples: o.count };
  /** @type {EvaluateResult} */
  let ev;
  try {
    ev = model.evaluate(options);
  } catch (e) {
    throw new (options ? UsageError : RuntimeError)(errorMessage(e));
  }
  if ((options?.length !== undefined && ev.examples !== options.count) || (options?.maxExamples && ev.examples > options.maxExamples)) {
    throw new RuntimeError(`this version of attention-lab ignores ${options.length ? '--length' : '--count'} (its evaluate() takes no options yet)`);
  }
  if (o.json) return print(toJSON({ task: info.task, ...options, ...ev }));
  const set = options?.length !== undefined ? `${ev.examples} fresh strings of length ${options.length} (seed ${options.seed})`
    : ev.heldOutIsTrainingData ? `its ${ev.examples} training pairs (${info.task === 'pairs' ? 'none was held out' : "the note's task has no held-out set"})`
    : `${ev.examples} held-out examples`;
  print(`${info.task} model after ${info.step} steps, on ${set}:`);
  print(table([
    ['loss', `${fixed(ev.loss)}  (cross-entropy per target token, teacher-forced)`],
    ['token accuracy', `${pct(ev.tokenAccuracy)}  (teacher-forced argmax)`],
    ...(options?.length !== undefined ? [byPositionRow(ev.tokenAccuracyByPosition.slice(0, options.length), info.task)] : []),
    ['exact match', `${pct(ev.exactMatch)}  (greedy translation equals the reference)`],
  ], 'll').map((l) => `  ${l}`).join('\n'));
}

/**
 * The token accuracy of strings of one length in five parts of the target, in the order written
 * (--json has every position: tokenAccuracyByPosition).
 * @param {number[]} byPosition  one value per target letter (<eos> left out)
 * @param {string} task
 * @returns {[string, string]}
 */
function byPositionRow(byPosition, task) {
  const n = byPosition.length;
  const parts = Math.min(5, n);
  const cells = Array.from({ length: parts }, (_, i) => {
    const from = Math.floor((i * n) / parts), to = Math.floor(((i + 1) * n) / parts);
    const part = byPosition.slice(from, to);
    return `${from + 1}–${to}: ${pct(part.reduce((a, b) => a + b, 0) / part.length)}`;
  });
  const order = task === 'reverse' ? "; reversing, the letters written last are the input's first" : '';
  return ['by position', `${cells.join(', ')}  (letters in the order written${order})`];
}

/**
 * @param {AttentionLab} lab
 * @param {OptionValues<'export'>} o
 * @param {Print} print
 */
export function exportModel(lab, o, print) {
  refuseOverwrite(o.out, { model: o.model });
  checkOut(o.out);
  const model = readModel(lab, o.model);
  if (o.names === 'book' && model.info().arch === 'transformer') {
    throw new UsageError("--names book does not apply to a Transformer: its state-dict names are the reference module's (leave out --names)");
  }
  const file = model.save({ format: o.format, names: o.names });
  checkRoom(o.out, file.byteLength);
  const bytes = writeAtomic(o.out, file);
  print(`wrote ${o.out} (${o.format}, ${o.names} state-dict names, ${bytes.toLocaleString('en-US')} bytes)`);
}

/**
 * The task, and for your own pairs how many there are and how they split.
 * @param {SessionInfo} i
 */
function taskLine(i) {
  if (!i.pairs) return i.task;
  const p = i.pairs;
  return `pairs: ${p.trainPairs} training, ${p.heldOutPairs} held out (${Number((p.heldOut * 100).toPrecision(6))}%), ${p.tokenize} as tokens`;
}

/**
 * @param {AttentionLab} lab
 * @param {OptionValues<'info'>} o
 * @param {Print} print
 */
export function info(lab, o, print) {
  const read = readAnyModel(lab, o.model);
  if (o.json) return print(toJSON({ file: o.model, bytes: statSync(o.model).size, ...(read.gpt ? { arch: 'gpt' } : {}), ...read.model.info() }));
  if (read.gpt) return gptInfo(o, read.model.info(), print);
  const i = read.model.info();
  if (i.arch === 'transformer') return printTransformerInfo(o, i, print);
  if (i.format === 'safetensors') {
    return print(table([
      ['file', `${o.model} (${(statSync(o.model).size / 1024).toFixed(0)} KiB, safetensors, ${i.names} state-dict names)`],
      ['cell', i.cell],
      ['hidden', String(i.hidden)],
      ['embedding', String(i.embedding)],
      ['attention', i.attention ? `${i.score}${i.attentionalTanh ? ', with the tanh layer' : ''}` : 'none'],
      ['source vocabulary', `${i.sourceVocabSize} tokens (${i.sourceTokenizer}, in the file's order)`],
      ['target vocabulary', `${i.targetVocabSize} tokens (${i.targetTokenizer})`],
      ['parameters', i.parameterCount.toLocaleString('en-US')],
    ], 'll').join('\n'));
  }
  print(table([
    ['file', `${o.model} (${(statSync(o.model).size / 1024).toFixed(0)} KiB)`],
    ['task', taskLine(i)],
    ['cell', i.cell],
    ['hidden', String(i.hidden)],
    ['embedding', String(i.embedding)],
    ['attention', i.attention ? `${i.score}${i.attentionalTanh ? ', with the tanh layer' : ''}` : 'none'],
    ['source vocabulary', `${i.sourceVocabSize} tokens (${i.sourceTokenizer}; <pad> <sos> <eos> <unk> included)`],
    ['target vocabulary', `${i.targetVocabSize} tokens (${i.targetTokenizer})`],
    ['parameters', i.parameterCount.toLocaleString('en-US')],
    ['steps trained', i.step.toLocaleString('en-US')],
    ['batch size', String(i.batchSize)],
    ['learning rate', String(f32(i.learningRate))],
    ['clip norm', i.clipNorm > 0 ? String(f32(i.clipNorm)) : 'off'],
    ['seed', String(i.seed)],
  ], 'll').join('\n'));
}

/**
 * @param {OptionValues<'info'>} o
 * @param {(TransformerSeq2SeqInfo & { format?: undefined }) | ImportedTransformerInfo} i
 * @param {Print} print
 */
function printTransformerInfo(o, i, print) {
  const imported = i.format === 'safetensors'; // read from .safetensors: no task, no training state
  const kib = (statSync(o.model).size / 1024).toFixed(0);
  const rows = [
    ['file', imported ? `${o.model} (${kib} KiB, safetensors, the reference module's state-dict names)` : `${o.model} (${kib} KiB)`],
    ...(imported ? [] : [['task', taskLine(i)]]),
    ['model', `transformer, ${i.normFirst ? 'pre' : 'post'}-norm`],
    ['layers', `${i.layers} (encoder) + ${i.layers} (decoder)`],
    ['heads', String(i.heads)],
    ['dModel', String(i.dModel)],
    ['dFF', String(i.dFF)],
    ['source vocabulary', `${i.sourceVocabSize} tokens (${i.sourceTokenizer}${imported ? ", in the file's order" : '; <pad> <sos> <eos> <unk> included'})`],
    ['target vocabulary', `${i.targetVocabSize} tokens (${i.targetTokenizer})`],
    ['parameters', i.parameterCount.toLocaleString('en-US')],
  ];
  if (!imported) {
    rows.push(
      ['steps trained', i.step.toLocaleString('en-US')],
      ['batch size', String(i.batchSize)],
      ['learning rate', `${f32(i.learningRate)} (peak; warm-up ${i.warmup} steps)`],
      ['clip norm', i.clipNorm > 0 ? String(f32(i.clipNorm)) : 'off'],
      ['seed', String(i.seed)],
    );
  }
  print(table(rows, 'll').join('\n'));
}
