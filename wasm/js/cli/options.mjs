// Command-line options of `attention-lab` (bin/attention-lab.mjs): one table per command, from
// which both the parser (node:util parseArgs, strict) and the --help text are made, so the help
// always lists every option with its default. Bad input throws UsageError (exit code 2).
import { parseArgs } from 'node:util';
import { RNN_TASK_DEFAULTS } from '../task-defaults.mjs';
/** @import { ParseArgsConfig } from 'node:util' */
/** @import { RnnTask, RnnTaskDefaults } from '../task-defaults.mjs' */

export class UsageError extends Error {}
export class RuntimeError extends Error {}

export const TASKS = /** @type {const} */ (['zh-en', 'note', 'dates', 'reverse', 'copy', 'poems']);
export const CELLS = /** @type {const} */ (['rnn', 'gru', 'lstm']);
export const ARCHS = /** @type {const} */ (['rnn', 'transformer']);
export const ATTENTION = /** @type {const} */ (['dot', 'scaled', 'general', 'additive', 'cosine', 'none']);

/**
 * Each task's default of a recurrent setting, grouped by value: "zh-en, --pairs gru; note, reverse,
 * copy rnn; dates lstm". `unset(task)` is the core's value where the table leaves the key out.
 * @param {keyof RnnTaskDefaults} key
 * @param {(task: RnnTask) => number} [unset]
 */
function byTask(key, unset) {
  /** @type {Map<unknown, string[]>} */
  const groups = new Map();
  for (const [task, d] of /** @type {[RnnTask, RnnTaskDefaults][]} */ (Object.entries(RNN_TASK_DEFAULTS))) {
    const v = d[key] ?? unset?.(task);
    groups.set(v, [...(groups.get(v) ?? []), task === 'pairs' ? '--pairs' : task]);
  }
  return [...groups].map(([v, tasks]) => `${tasks.join(', ')} ${v}`).join('; ');
}
const withTanh = Object.entries(RNN_TASK_DEFAULTS).filter(([, d]) => d.attentionalTanh).map(([t]) => t).join(', ');
const PAGE = "the page's settings; reverse and copy, not in the page, the book's";

/**
 * One option of a command: how it is parsed and checked, and its line of --help. `default` is what
 * the command uses when the option is absent (undefined: required, or the core's own default as
 * the help says); arg: the value's name in the help (FILE, STEP:SOURCE); multiple: may be given
 * more than once. Only train's
 * options say which models they apply to (`applies`), why not to the others (`why`), or which
 * option the others take instead (`instead`).
 * @typedef {{ help: string, arg?: string, required?: boolean, default?: string | number, multiple?: boolean,
 *   applies?: 'new' | 'rnn' | 'transformer' | 'pairs' | 'poems', why?: string, instead?: string }} OptionCommon
 */
/**
 * A choice lists its values (`listed`: its help names them itself); `noun` is what a value is
 * called in errors, `optionalValue` the value of the option given without one. A pair is
 * STEP:SOURCE (a number), or with `text` STEP:WORD.
 * @typedef {OptionCommon & ({ kind: 'flag' } | { kind: 'text' }
 *   | { kind: 'choice', choices: readonly string[], listed?: boolean, noun?: string, optionalValue?: string }
 *   | { kind: 'int', min: number, max: number }
 *   | { kind: 'number', min?: number, max?: number, positive?: boolean }
 *   | { kind: 'pair', text?: boolean })} OptionSpec
 */
/**
 * @typedef {object} CommandSpec
 * @property {string} usage
 * @property {string} summary
 * @property {string} [positional] what the words after the options are (SENTENCE, MODEL)
 * @property {Readonly<Record<string, OptionSpec>>} options
 */
const model = /** @type {const} */ ({ kind: 'text', arg: 'FILE', required: true, help: 'model file written by `attention-lab train`, or a .safetensors translator (docs/safetensors.md)' });
const json = /** @type {const} */ ({ kind: 'flag', help: 'print JSON instead of text' });

export const COMMANDS = /** @satisfies {Readonly<Record<string, CommandSpec>>} */ (/** @type {const} */ ({
  train: {
    usage: 'attention-lab train (--task NAME | --pairs FILE | --from MODEL) --steps N --out FILE [options]',
    summary: 'train a Seq2Seq model on a task or on your own sentence pairs, or (--task poems) a GPT on the Tang poems or your own text, and write it to a model file',
    options: {
      task: { kind: 'choice', choices: TASKS, listed: true, applies: 'new', help: "the task: zh-en (the page's grammar corpus, Chinese → English), note (the 5 Chinese → English pairs), dates (dates → ISO), reverse or copy (letter strings), or poems (a character-level GPT on the Tang poems, docs/gpt.md); this, --pairs or --from is required" },
      corpus: { kind: 'choice', choices: ['tang300-form', 'tang300', 'song100'], applies: 'poems', help: 'with --task poems: the poems to train on, tang300-form (the 绝句 and 律诗 of 唐诗三百首, the poems with the form, without title and author: the default), tang300 (all of 唐诗三百首) or song100 (宋词一百首), as `npm run build:poems` extracts them from Debian\'s fortunes-zh' },
      text: { kind: 'text', arg: 'FILE', applies: 'poems', help: 'with --task poems: train on your own UTF-8 text instead of the Tang poems (poems separated by blank lines; at most 1 MiB)' },
      'block-size': { kind: 'int', min: 1, max: 1024, applies: 'poems', help: 'with --task poems: the context in characters (default: the recipe\'s, docs/gpt.md)' },
      windows: { kind: 'choice', choices: ['poem', 'text'], applies: 'poems', help: 'with --task poems: where a training window starts, at a poem\'s start, holding that poem alone (poem: the default, so a character\'s place in its line is its place in the window; the targets after the poem are ignored) or anywhere in the text (text: nanoGPT\'s)' },
      drills: { kind: 'number', min: 0, max: 0.95, applies: 'poems', help: 'with --task poems: the share of the training windows that are form drills, a training poem\'s line breaks and punctuation with random characters of the text in place of its words, 0 … 0.95 (default: the recipe\'s 0.75 on the poems of --corpus; 0 with --text FILE, and with --windows text, which has none; docs/gpt.md)' },
      pairs: { kind: 'text', arg: 'FILE', applies: 'new', help: 'train on your own sentence pairs: a UTF-8 text file, one source<TAB>target per line (blank lines and lines starting with # are skipped; at most 20000 pairs, 64 tokens a side)' },
      tokenize: { kind: 'choice', choices: ['words', 'chars'], default: 'words', applies: 'pairs', why: 'the tasks have their own tokens', help: 'with --pairs: split each side into words (at whitespace) or into characters (whitespace dropped)' },
      'held-out': { kind: 'number', min: 0, max: 0.5, applies: 'pairs', why: 'the tasks have their own held-out sets', help: 'with --pairs: the share of the distinct pairs held out for evaluation, 0 … 0.5 (0: evaluate on the training pairs); with --task poems: the share of the poems held out whole; default 0.1' },
      from: { kind: 'text', arg: 'MODEL', help: 'continue training a model file written by `attention-lab train`: its weights, Adam state, step count and data order, so that --steps N more steps give the same file as one uninterrupted run' },
      arch: { kind: 'choice', choices: ARCHS, default: 'rnn', applies: 'new', help: 'the model: the recurrent translator (rnn) or the Transformer' },
      cell: { kind: 'choice', choices: CELLS, applies: 'rnn', why: 'the Transformer has no recurrent cell', help: `recurrent cell; default (${PAGE}): ${byTask('cell')}` },
      hidden: { kind: 'int', min: 1, max: 4096, applies: 'rnn', instead: '--d-model', help: `hidden size; default (${PAGE}): ${byTask('hidden')}` },
      embedding: { kind: 'int', min: 0, max: 4096, default: 0, applies: 'rnn', instead: '--d-model', help: 'embedding size; 0: same as --hidden' },
      attention: { kind: 'choice', choices: ATTENTION, default: 'dot', applies: 'rnn', why: "the Transformer's attention is multi-head scaled dot-product; see --heads", help: 'score function of the Luong attention, or none' },
      'attentional-tanh': { kind: 'flag', applies: 'rnn', why: "the Transformer has no Luong attention layer", help: `add Luong's tanh(W_c[dec; ctx] + b_c) layer (needs attention); on by default for ${withTanh}, as the page` },
      'no-attentional-tanh': { kind: 'flag', applies: 'rnn', why: 'the Transformer has no Luong attention layer', help: `leave out Luong's tanh layer where the task has it by default (${withTanh})` },
      layers: { kind: 'int', min: 1, max: 6, applies: 'transformer', why: 'the recurrent translator has one encoder and one decoder layer', help: "transformer: encoder and decoder layers (default: the session's default for the task, docs/transformer.md)" },
      heads: { kind: 'int', min: 1, max: 1024, applies: 'transformer', why: 'the recurrent translator has one attention; see --attention', help: "transformer: attention heads, must divide --d-model (default: the session's default for the task, docs/transformer.md)" },
      'd-model': { kind: 'int', min: 1, max: 1024, applies: 'transformer', instead: '--hidden', help: "transformer: model size (default: the session's default for the task, docs/transformer.md)" },
      'd-ff': { kind: 'int', min: 1, max: 4096, applies: 'transformer', help: "transformer: feed-forward size (default: the session's default for the task, docs/transformer.md)" },
      'norm-first': { kind: 'flag', applies: 'transformer', help: "transformer: pre-norm layers (default: the session's default for the task, docs/transformer.md; dates and zh-en pre-norm, others post-norm as PyTorch)" },
      'post-norm': { kind: 'flag', applies: 'transformer', help: "transformer: post-norm layers, PyTorch's default" },
      warmup: { kind: 'int', min: 0, max: 1000000, applies: 'transformer', help: "transformer: steps of linear learning-rate warm-up, then 1/√step decay; 0: constant (default: the session's default for the task, docs/transformer.md)" },
      batch: { kind: 'int', min: 1, max: 1024, applies: 'new', help: `batch size; default (rnn, ${PAGE}): ${byTask('batchSize', (t) => (t === 'note' ? 1 : 32))}; transformer: the session's default for the task` },
      lr: { kind: 'number', positive: true, applies: 'new', help: `Adam's learning rate (the peak with --warmup); default (rnn, ${PAGE}): ${byTask('learningRate')}; transformer: the session's default for the task` },
      clip: { kind: 'number', min: 0, applies: 'new', help: `clip the gradient norm to this before each step; 0: off; default (rnn): ${byTask('clipNorm', () => 0)}; transformer 1` },
      seed: { kind: 'int', min: 0, max: 2147483647, default: 1, applies: 'new', help: 'seed of the weights, the data and the batches' },
      steps: { kind: 'int', min: 1, max: 10000000, required: true, help: 'Adam steps to train (with --from: steps more)' },
      'eval-every': { kind: 'int', min: 0, max: 10000000, default: 200, help: 'evaluate on the held-out set every N steps and at the end; 0: never' },
      'eval-examples': { kind: 'int', min: 0, max: 10000, default: 500, help: 'held-out examples per evaluation while training; 0: all' },
      'log-every': { kind: 'int', min: 1, max: 10000000, default: 50, help: 'print a progress line every N steps' },
      'checkpoint-every': { kind: 'int', min: 1, max: 10000000, help: 'also write the model to --out every N steps (atomically), so a crash or a power cut loses at most N steps' },
      progress: { kind: 'choice', choices: ['auto', 'text', 'json', 'none'], default: 'auto', help: 'progress lines: text (with steps/s and ETA), json (one JSON object a line, for scripts), none; auto: text, plus a live line on a terminal' },
      out: { kind: 'text', arg: 'FILE', required: true, help: 'where to write the model (at the end, at each checkpoint, or the last good state on Ctrl-C); never one of the input files' },
    },
  },
  translate: {
    usage: 'attention-lab translate --model FILE [options] ("SENTENCE" | --input FILE|-)',
    summary: 'translate a sentence and show the decoding steps and the attention matrix (per layer and head for a Transformer), or a file of sentences',
    positional: 'SENTENCE',
    options: {
      model,
      input: { kind: 'text', arg: 'FILE|-', help: 'translate every line of FILE (- : standard input), one sentence a line, with the model loaded once: one translation a line, or with --json one JSON object a line' },
      beam: { kind: 'int', min: 1, max: 64, help: 'beam search with this width (default: greedy decoding)' },
      'length-alpha': { kind: 'number', min: 0, max: 4, help: 'with --beam: a hypothesis scores log p / length^α, so a larger α favours longer ones (0: the raw log-probability); default 1' },
      'top-k': { kind: 'int', min: 1, max: 1024, default: 3, help: 'candidates shown per decoding step' },
      'max-length': { kind: 'int', min: 1, max: 1024, help: "output tokens at most, <eos> included (default: the task's longest target + 1, at least 32)" },
      shade: { kind: 'flag', help: 'add a shade character ( ░▒▓█) to each attention cell' },
      'force-attention': { kind: 'pair', multiple: true, arg: 'STEP:SOURCE', help: 'intervene: at decoding step STEP put all the attention (a Transformer: every cross-attention head) on source token SOURCE (both counted from 1, as the tables show them) and decode on; shows the original beside it; repeatable' },
      'force-token': { kind: 'pair', multiple: true, text: true, arg: 'STEP:WORD', help: 'intervene: at decoding step STEP write WORD (another candidate) instead of the most probable word and decode on; repeatable' },
      attribution: { kind: 'choice', noun: 'method', choices: ['gradient-input', 'integrated-gradients'], optionalValue: 'gradient-input', arg: '[METHOD]', listed: true, help: "also attribute each output word to the source tokens by gradients: gradient-input (the default when --attribution is last or followed by another option) or integrated-gradients, with each word's rank correlation to its attention" },
      'ig-steps': { kind: 'int', min: 1, max: 1024, default: 32, help: 'integrated gradients: steps from the zero embedding' },
      json: { kind: 'flag', help: 'print the full trace as JSON instead' },
    },
  },
  evaluate: {
    usage: 'attention-lab evaluate --model FILE [--pairs FILE | --length L [--seed S]] [--count N] [--json]',
    summary: 'a translator: loss, token accuracy and exact match on the held-out set, at one length, or on your own test pairs; a GPT: the held-out loss per character (and in bits) beside the bigram and unigram baselines',
    options: {
      model,
      pairs: { kind: 'text', arg: 'FILE', help: 'evaluate on your own test pairs (one source<TAB>target per line, as train --pairs): exact match and token accuracy of the greedy translations, overall and by source length' },
      length: { kind: 'int', min: 1, max: 64, help: 'reverse/copy: evaluate on fresh strings of this length instead of the held-out set' },
      count: { kind: 'int', min: 1, max: 20000, help: 'examples: with --length, how many (default 200; at most 10000); otherwise only the first N held-out examples or --pairs pairs (default all)' },
      seed: { kind: 'int', min: 0, max: 2147483647, help: 'seed of the --length strings (default 1)' },
      json,
    },
  },
  export: {
    usage: 'attention-lab export --model FILE --format safetensors --out FILE [--names project|book]',
    summary: 'write a model file as .safetensors, the PyTorch state dict with its config and vocabularies',
    options: {
      model: { ...model, help: 'model file written by `attention-lab train` (or a .safetensors file)' },
      format: { kind: 'choice', choices: ['safetensors'], required: true, help: 'the format to write (docs/safetensors.md)' },
      names: { kind: 'choice', choices: ['project', 'book'], default: 'project', help: "state-dict names: project (out.weight) or book (the book's decoder.out.weight)" },
      out: { kind: 'text', arg: 'FILE', required: true, help: 'where to write the file (never --model itself)' },
    },
  },
  generate: {
    usage: 'attention-lab generate MODEL --prompt TEXT [options]',
    summary: 'continue a prompt with a GPT trained by `attention-lab train --task poems`, and show each step\'s candidates',
    positional: 'MODEL',
    options: {
      prompt: { kind: 'text', arg: 'TEXT', required: true, help: 'the text to continue: characters the model knows (its training text\'s)' },
      'max-new-tokens': { kind: 'int', min: 1, max: 1024, default: 48, help: 'characters to generate' },
      greedy: { kind: 'flag', help: 'take the most likely character at every step (no sampling)' },
      temperature: { kind: 'number', positive: true, help: 'sampling temperature: below 1 sharper, above 1 flatter; default 1' },
      'top-k': { kind: 'int', min: 0, max: 1000000, help: 'sample from the k most likely characters only; 0: all (the default)' },
      'top-p': { kind: 'number', positive: true, help: 'sample from the most likely characters whose probabilities sum to p, in (0, 1]; default 1' },
      seed: { kind: 'int', min: 0, max: 2147483647, default: 1, help: 'seed of the sampling: the same seed gives the same text' },
      candidates: { kind: 'int', min: 0, max: 64, default: 5, help: 'candidates shown per step (with --json: kept per step)' },
      json: { kind: 'flag', help: 'print the text and every step (candidates, attention) as JSON' },
    },
  },
  info: {
    usage: 'attention-lab info --model FILE [--json]',
    summary: 'configuration, vocabulary sizes, parameter count and steps trained of a model file (a translator or a GPT)',
    options: { model, json },
  },
}));

/** @typedef {typeof COMMANDS} Commands */
/** @typedef {keyof Commands} CommandName */
/**
 * The value of an option of spec `S` after parsing: undefined where it was not given and has no
 * default.
 * @template S
 * @typedef {S extends { kind: 'flag' } ? boolean
 *   : S extends { kind: 'pair', text: true } ? { step: number, value: string }[]
 *   : S extends { kind: 'pair' } ? { step: number, value: number }[]
 *   : (S extends { kind: 'int' | 'number' } ? number : S extends { choices: readonly (infer C)[] } ? C : string)
 *     | (S extends { required: true } | { default: unknown } ? never : undefined)} OptionValue
 */
/**
 * The options of command `C`, by name.
 * @template {CommandName} C
 * @typedef {{ -readonly [K in keyof Commands[C]['options']]: OptionValue<Commands[C]['options'][K]> }} OptionValues
 */
/**
 * A parsed command line: the options' values, the options typed (`given`) and the words.
 * @template {CommandName} C
 * @typedef {{ help?: undefined, command: C, values: OptionValues<C>, given: Set<keyof OptionValues<C>>, positionals: string[] }} Parsed
 */
/** @typedef {{ [C in CommandName]: Parsed<C> }[CommandName]} ParsedCommand */

/**
 * Whether `name` is a command (the first word of the command line).
 * @param {string} name
 * @returns {name is CommandName}
 */
export function isCommand(name) {
  return Object.hasOwn(COMMANDS, name);
}

/**
 * @param {string} name
 * @param {OptionSpec} spec
 */
function optionLabel(name, spec) {
  if (spec.kind === 'flag') return `--${name}`;
  const arg = spec.arg ?? (spec.kind === 'choice' ? 'NAME' : spec.kind === 'int' ? 'N' : spec.kind === 'number' ? 'X' : 'TEXT');
  return `--${name} ${arg}`;
}

/** @param {OptionSpec} spec */
function optionHelp(spec) {
  const parts = [spec.help];
  if (spec.kind === 'choice' && !spec.listed) parts.push(`one of ${spec.choices.join(', ')}`);
  if (spec.kind === 'int') parts.push(`${spec.min}–${spec.max}`);
  if (spec.required) parts.push('required');
  else if (spec.default !== undefined && spec.kind !== 'flag') parts.push(`default ${spec.default}`);
  return parts.join('; ');
}

/** @param {CommandName} name */
export function commandHelp(name) {
  /** @type {CommandSpec} */
  const c = COMMANDS[name];
  const rows = Object.entries(c.options).map(([n, s]) => [optionLabel(n, s), optionHelp(s)]);
  rows.push(['-h, --help', 'show this help']);
  const w = Math.max(...rows.map(([l]) => l.length)) + 2;
  return [`${c.summary}.`, '', `usage: ${c.usage}`, '', 'options:', ...rows.map(([l, h]) => `  ${l.padEnd(w)}${h}`), ''].join('\n');
}

/** @param {string} version */
export function mainHelp(version) {
  const names = /** @type {CommandName[]} */ (Object.keys(COMMANDS));
  const w = Math.max(...names.map((n) => n.length)) + 2;
  return [
    `attention-lab ${version}: train, run and inspect the attention models of AttentionLab (Seq2Seq translators and a GPT)`,
    '',
    'usage: attention-lab <command> [options]',
    '',
    'commands:',
    ...names.map((n) => `  ${n.padEnd(w)}${COMMANDS[n].summary}`),
    '',
    'options:',
    '  -h, --help     show this help (or `attention-lab <command> --help` for a command)',
    '  -v, --version  print the version',
    '',
    'examples:',
    '  attention-lab train --task dates --steps 2000 --out dates.model',
    '  attention-lab train --pairs my-pairs.tsv --tokenize chars --steps 2000 --out mine.model',
    '  attention-lab train --task dates --arch transformer --steps 1500 --out tf.model',
    '  attention-lab train --from dates.model --steps 1000 --checkpoint-every 200 --out dates-3000.model',
    '  attention-lab translate --model dates.model "JAN 23, 2015" --beam 4',
    '  attention-lab translate --model note.model "咖哥 喜欢 小冰" --force-attention 1:3 --attribution',
    '  attention-lab translate --model dates.model --input dates.txt --json > translations.jsonl',
    '  attention-lab train --task poems --steps 1000 --out poems.model',
    '  attention-lab generate poems.model --prompt 床前 --temperature 0.8 --top-k 20',
    '  attention-lab evaluate --model dates.model',
    '  attention-lab evaluate --model mine.model --pairs my-test-pairs.tsv',
    '  attention-lab evaluate --model poems.model',
    '  attention-lab info --model dates.model',
    '  attention-lab export --model dates.model --format safetensors --out dates.safetensors',
    '',
    'Exit codes: 0 success, 1 runtime error (unreadable or corrupt file, diverged training), 2 usage error,',
    '130 interrupted (Ctrl-C; train still writes the last good model), 143 stopped by SIGTERM (the same).',
    '',
  ].join('\n');
}

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/**
 * STEP:SOURCE (both whole numbers ≥ 1) or STEP:WORD → {step, value}, as typed (1-based).
 * @param {string} name
 * @param {OptionSpec & { kind: 'pair' }} spec
 * @param {string} raw
 * @returns {{ step: number, value: string | number }}
 */
function convertPair(name, spec, raw) {
  const m = /^(\d+):(.+)$/s.exec(raw);
  const step = m ? Number(m[1]) : NaN;
  if (!m || !(step >= 1)) throw new UsageError(`--${name} takes ${spec.arg} with STEP a whole number from 1 (got '${raw}')`);
  if (spec.text) return { step, value: m[2] };
  const source = /^\d+$/.test(m[2]) ? Number(m[2]) : NaN;
  if (!(source >= 1)) throw new UsageError(`--${name} takes ${spec.arg} with SOURCE a whole number from 1 (got '${raw}')`);
  return { step, value: source };
}

/**
 * The value of option `name`, converted and checked. `raw` is as parseArgs gives it: a flag's
 * boolean, the strings of an option given more than once (a pair), else a string.
 * @param {string} name
 * @param {OptionSpec} spec
 * @param {string | boolean | (string | boolean)[]} raw
 * @returns {boolean | string | number | { step: number, value: string | number }[]}
 */
function convert(name, spec, raw) {
  if (spec.kind === 'flag') return /** @type {boolean} */ (raw);
  if (spec.kind === 'pair') return /** @type {string[]} */ (raw).map((r) => convertPair(name, spec, r));
  return convertText(name, spec, /** @type {string} */ (raw));
}

/**
 * @param {string} name
 * @param {OptionSpec & { kind: 'text' | 'choice' | 'int' | 'number' }} spec
 * @param {string} raw
 */
function convertText(name, spec, raw) {
  if (spec.kind === 'text') {
    if (raw === '') throw new UsageError(`--${name} must not be empty`);
    return raw;
  }
  if (spec.kind === 'choice') {
    if (!spec.choices.includes(raw)) {
      const bare = spec.optionalValue ? `; for the default, put --${name} last or before another option` : '';
      throw new UsageError(`unknown ${spec.noun ?? name} '${raw}' for --${name} (expected ${spec.choices.join(', ')}${bare})`);
    }
    return raw;
  }
  const v = NUMBER.test(raw.trim()) ? Number(raw) : NaN;
  if (spec.kind === 'int') {
    if (!Number.isInteger(v) || v < spec.min || v > spec.max) {
      throw new UsageError(`--${name} must be a whole number in [${spec.min}, ${spec.max}] (got '${raw}')`);
    }
    return v;
  }
  if (!Number.isFinite(v) || (spec.positive && !(v > 0)) || (spec.min !== undefined && v < spec.min) || (spec.max !== undefined && v > spec.max)) {
    const what = spec.positive ? 'a positive number' : spec.max !== undefined ? `a number in [${spec.min}, ${spec.max}]` : `a number ≥ ${spec.min}`;
    throw new UsageError(`--${name} must be ${what} (got '${raw}')`);
  }
  return v;
}

/**
 * Edit distance of two option names, for "did you mean": a typo is one or two edits away.
 * @param {string} a
 * @param {string} b
 */
function distance(a, b) {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length];
}

/**
 * parseArgs' error in the command line's words.
 * @param {NodeJS.ErrnoException} e
 * @param {CommandName} command
 */
function parseError(e, command) {
  const first = String(e.message).split('\n')[0];
  const see = `see 'attention-lab ${command} --help'`;
  switch (e.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION': {
      // parseArgs' own sentence goes on about positionals after '--' when the command takes a
      // sentence; the option's name is all the user needs, and the nearest real one.
      const name = first.match(/'([^']*)'/)?.[1] ?? first;
      const bare = name.replace(/^-+/, '').replace(/=.*$/s, '');
      const [near] = Object.keys(COMMANDS[command].options).map((n) => /** @type {const} */ ([n, distance(bare, n)]))
        .filter(([n, d]) => d <= Math.min(2, n.length >> 1)).sort((a, b) => a[1] - b[1]);
      return new UsageError(`unknown option '${name}' for '${command}'${near ? `; did you mean --${near[0]}?` : ''} (${see})`);
    }
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return new UsageError(`unexpected argument ${first.match(/'.*'/)?.[0] ?? ''} for '${command}' (${see})`);
    default: {
      const m = first.match(/Option '(--[\w-]+)/);
      if (m && /ambiguous/.test(first)) return new UsageError(`${m[1]} needs a value; for a value starting with '-' write ${m[1]}=VALUE`);
      if (m && /missing/.test(first)) return new UsageError(`${m[1]} needs a value (${see})`);
      if (m && /does not take/.test(first)) return new UsageError(`${m[1]} does not take a value`);
      return new UsageError(first);
    }
  }
}

/**
 * Parses the arguments after the command name. Returns {help} or the command's values.
 * @param {CommandName} command
 * @param {string[]} args
 * @returns {{ help: true } | ParsedCommand}
 */
export function parseCommand(command, args) {
  /** @type {CommandSpec} */
  const c = COMMANDS[command];
  /** @type {NonNullable<ParseArgsConfig['options']>} */
  const options = { help: { type: 'boolean', short: 'h' } };
  for (const [n, s] of Object.entries(c.options)) {
    options[n] = { type: s.kind === 'flag' ? 'boolean' : 'string', ...(s.multiple ? { multiple: true } : {}) };
  }
  // An option whose value may be left out (--attribution [METHOD]) takes its default when it is
  // last or followed by another option; a word after it is always its value, so that a misspelt
  // method is refused instead of becoming a word of the sentence.
  args = args.map((a, i) => {
    const spec = a.startsWith('--') ? c.options[a.slice(2)] : undefined;
    const optional = spec?.kind === 'choice' ? spec.optionalValue : undefined;
    if (!optional) return a;
    const next = args[i + 1];
    return next !== undefined && !next.startsWith('-') ? a : `${a}=${optional}`;
  });
  let parsed;
  try {
    parsed = parseArgs({ args, options, strict: true, allowPositionals: Boolean(c.positional), tokens: true });
  } catch (e) {
    const error = /** @type {NodeJS.ErrnoException} */ (e);
    if (typeof error.code === 'string' && error.code.startsWith('ERR_PARSE_ARGS')) throw parseError(error, command);
    throw e;
  }
  if (parsed.values.help) return { help: true };
  // parseArgs keeps the last of an option given twice; which one the user meant is unknowable.
  /** @type {Set<string>} */
  const seen = new Set();
  for (const t of parsed.tokens ?? []) {
    if (t.kind !== 'option' || c.options[t.name]?.multiple) continue;
    if (seen.has(t.name)) throw new UsageError(`--${t.name} is given more than once; give it once (see 'attention-lab ${command} --help')`);
    seen.add(t.name);
  }
  /** @type {Record<string, unknown>} */
  const values = {};
  /** @type {Set<string>} */
  const given = new Set();
  for (const [n, s] of Object.entries(c.options)) {
    const raw = parsed.values[n];
    if (raw !== undefined) given.add(n);
    if (raw === undefined) {
      if (s.required) throw new UsageError(`${command} needs --${n} (see 'attention-lab ${command} --help')`);
      values[n] = s.kind === 'flag' ? false : s.multiple ? [] : s.default;
    } else {
      values[n] = convert(n, s, raw);
    }
  }
  // the table's kinds, requirements and defaults make the values what OptionValues says
  return /** @type {ParsedCommand} */ ({ command, values, given, positionals: parsed.positionals });
}

/**
 * Refuses every option given to `train` that does not apply to the model it makes: a recurrent
 * option with --arch transformer and the reverse, a --pairs option without --pairs, and with
 * --from anything that the model file already fixes.
 * @param {OptionValues<'train'>} o
 * @param {Set<keyof OptionValues<'train'>>} given
 */
export function checkTrainOptions(o, given) {
  /** @type {Readonly<Record<string, OptionSpec>>} */
  const options = COMMANDS.train.options;
  if (o.task === 'poems') return checkPoemsOptions(o, given);
  for (const n of given) {
    if (options[n].applies === 'poems') throw new UsageError(`--${n} applies to --task poems only`);
    const spec = options[n];
    if (!spec.applies) continue;
    const why = spec.instead ? `; use ${spec.instead}` : spec.why ? ` (${spec.why})` : '';
    if (given.has('from')) {
      throw new UsageError(`--${n} does not apply with --from: the model and its training settings come from the file '${o.from}'`);
    }
    if (spec.applies === 'rnn' && o.arch === 'transformer') throw new UsageError(`--${n} does not apply to --arch transformer${why}`);
    if (spec.applies === 'transformer' && o.arch !== 'transformer') {
      const rnn = spec.instead ? `; for the recurrent translator use ${spec.instead}` : spec.why ? ` (${spec.why})` : '';
      throw new UsageError(`--${n} applies to --arch transformer only${rnn}`);
    }
    if (spec.applies === 'pairs' && !given.has('pairs')) throw new UsageError(`--${n} applies to --pairs only${why}`);
  }
  // Options of the progress output that the chosen output never uses.
  if (given.has('eval-examples') && o['eval-every'] === 0) throw new UsageError('--eval-examples has no effect with --eval-every 0 (training never evaluates)');
  if (given.has('log-every') && o.progress === 'none') throw new UsageError('--log-every has no effect with --progress none (only the first and last lines are printed)');
  const sources = /** @type {const} */ (['task', 'pairs', 'from']).filter((n) => given.has(n));
  if (sources.length === 0) throw new UsageError("train needs --task NAME, --pairs FILE or --from MODEL (see 'attention-lab train --help')");
  if (sources.length > 1) throw new UsageError(`--${sources[0]} and --${sources[1]} exclude each other: the data comes from one of --task, --pairs, --from`);
}

// What --task poems (the GPT, docs/gpt.md) takes besides the options every run has.
/** @type {Set<string>} */
const POEMS_OPTIONS = new Set(['task', 'corpus', 'text', 'block-size', 'windows', 'drills', 'held-out', 'layers', 'heads', 'd-model', 'warmup', 'batch', 'lr', 'seed']);
/** @type {Set<string>} */
const EVERY_RUN = new Set(['steps', 'eval-every', 'log-every', 'checkpoint-every', 'progress', 'out']);

/**
 * --task poems trains a GPT: every option of the translators is refused, naming what it takes instead.
 * @param {OptionValues<'train'>} o
 * @param {Set<keyof OptionValues<'train'>>} given
 */
function checkPoemsOptions(o, given) {
  if (given.has('corpus') && given.has('text')) throw new UsageError('--corpus and --text exclude each other: train on the poems of --corpus or on the text of --text');
  for (const n of given) {
    if (POEMS_OPTIONS.has(n) || EVERY_RUN.has(n)) continue;
    if (n === 'pairs' || n === 'from') throw new UsageError(`--task and --${n} exclude each other: the data comes from one of --task, --pairs, --from`);
    throw new UsageError(`--${n} does not apply to --task poems (a GPT; its options: ${[...POEMS_OPTIONS].filter((x) => x !== 'task').map((x) => `--${x}`).join(', ')})`);
  }
}
