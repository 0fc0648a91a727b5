// The CLI's jobs on many sentences with the model loaded once: `translate --input FILE|-` (one
// sentence a line → one translation, or one JSON object, a line) and `evaluate --pairs FILE` (your
// own test pairs: exact match and token accuracy of the greedy translations, by source length).
import { RuntimeError, UsageError } from './options.mjs';
import { readText } from './files.mjs';
import { cliMessage, errorMessage } from './messages.mjs';
import { pct, plainArrays, table } from './format.mjs';
/** @import { Print } from './format.mjs' */
/** @import { OptionValues } from './options.mjs' */
/** @import { Translator } from './session.mjs' */
/** @import { DecodeStep, TranslateOptions, TranslationAttribution } from '../types/attention-lab.js' */

/** @param {unknown} value */
const compact = (value) => JSON.stringify(value, plainArrays);

/**
 * The lines of a text file: a final newline ends the last line; CRLF is accepted.
 * @param {string} text
 */
function linesOf(text) {
  const lines = text.split('\n').map((l) => l.replace(/\r$/, ''));
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/**
 * Translates every line of --input. A line that cannot be translated (empty, too long, …) is
 * reported with its number (stderr, or a {line, error} object with --json) and the others go on,
 * so that output line N is always input line N; the exit code is then 1. `attribute`: each line's
 * attribution too (--attribution, with --json), or null.
 * @param {Translator} model
 * @param {string} input --input's file, or - (standard input)
 * @param {Pick<OptionValues<'translate'>, 'json'>} o
 * @param {TranslateOptions} options
 * @param {((sentence: string) => TranslationAttribution) | null} attribute
 * @param {Print} print
 */
export function translateLines(model, input, o, options, attribute, print) {
  const lines = linesOf(readText(input, 'input'));
  if (lines.length === 0) {
    throw new UsageError(`--input '${input}' has no lines to translate${input === '-' ? ' (standard input was empty or closed)' : ''}`);
  }
  let failed = 0;
  lines.forEach((sentence, i) => {
    try {
      const r = model.translate(sentence, options);
      if (!o.json) return print(r.text);
      const attribution = attribute ? attribute(sentence) : undefined;
      print(compact({ line: i + 1, ...r, ...(attribution ? { attribution } : {}) }));
    } catch (e) {
      ++failed;
      const message = cliMessage(errorMessage(e));
      if (o.json) return print(compact({ line: i + 1, error: message }));
      print('');
      process.stderr.write(`attention-lab: --input '${input}' line ${i + 1}: ${message}\n`);
    }
  });
  if (failed > 0) throw new RuntimeError(`${failed} of the ${lines.length} lines of --input '${input}' could not be translated (named above)`);
}

/**
 * The test pairs of --pairs: [{line, source, target}], with the format of `train --pairs`.
 * @param {string} path
 */
function testPairs(path) {
  /** @type {{ line: number, source: string, target: string }[]} */
  const pairs = [];
  linesOf(readText(path, 'pairs')).forEach((text, i) => {
    if (text.trim() === '' || text.startsWith('#')) return;
    const tab = text.indexOf('\t');
    if (tab < 0) throw new UsageError(`--pairs '${path}' line ${i + 1}: no tab between source and target`);
    const [source, target] = [text.slice(0, tab), text.slice(tab + 1)];
    if (target.includes('\t')) throw new UsageError(`--pairs '${path}' line ${i + 1}: more than one tab (one source<TAB>target a line)`);
    if (source.trim() === '' || target.trim() === '') throw new UsageError(`--pairs '${path}' line ${i + 1}: the ${source.trim() === '' ? 'source' : 'target'} is empty`);
    pairs.push({ line: i + 1, source, target });
  });
  if (pairs.length === 0) throw new UsageError(`--pairs '${path}' has no pairs (one source<TAB>target a line)`);
  return pairs;
}

/**
 * @param {string} text
 * @param {'words' | 'chars'} tokenizer
 */
const tokensOf = (text, tokenizer) => (tokenizer === 'chars' ? Array.from(text.replace(/\s+/g, '')) : text.trim().split(/\s+/));

/**
 * evaluate --pairs: each source translated greedily and compared with its reference, token by
 * token in the model's target tokens: exact match (every token and the length equal) and token
 * accuracy (reference tokens the translation has at the same position), overall and by the
 * source's length in tokens.
 * @param {Translator} model
 * @param {string} path --pairs' file
 * @param {Pick<OptionValues<'evaluate'>, 'count' | 'json'>} o
 * @param {Print} print
 */
export function evaluatePairs(model, path, o, print) {
  const info = model.info();
  let pairs = testPairs(path);
  if (o.count !== undefined) pairs = pairs.slice(0, o.count);
  /** @type {Map<number, { length: number, pairs: number, exact: number, right: number, tokens: number }>} */
  const byLength = new Map();
  let exact = 0, right = 0, tokens = 0;
  for (const p of pairs) {
    let r;
    try {
      r = model.translate(p.source);
    } catch (e) {
      throw new UsageError(`--pairs '${path}' line ${p.line}: ${cliMessage(errorMessage(e))}`);
    }
    const steps = /** @type {DecodeStep[]} */ (r.steps); // greedy decoding: one step a token
    const out = steps.map((s) => s.token).filter((t, i, all) => !(i === all.length - 1 && r.finished));
    const ref = tokensOf(p.target, info.targetTokenizer);
    const hits = ref.filter((t, i) => out[i] === t).length;
    const same = hits === ref.length && out.length === ref.length;
    const g = byLength.get(r.source.length) ?? { length: r.source.length, pairs: 0, exact: 0, right: 0, tokens: 0 };
    g.pairs++; g.exact += Number(same); g.right += hits; g.tokens += ref.length;
    byLength.set(g.length, g);
    exact += Number(same); right += hits; tokens += ref.length;
  }
  const groups = [...byLength.values()].sort((a, b) => a.length - b.length)
    .map((g) => ({ length: g.length, pairs: g.pairs, exactMatch: g.exact / g.pairs, tokenAccuracy: g.right / g.tokens }));
  const result = { pairs: pairs.length, exactMatch: exact / pairs.length, tokenAccuracy: right / tokens, byLength: groups };
  if (o.json) return print(JSON.stringify({ file: path, ...result }, null, 2));
  print(`${pairs.length} pairs of ${path}, translated greedily:`);
  print(table([
    ['exact match', `${pct(result.exactMatch)}  (the translation equals the reference)`],
    ['token accuracy', `${pct(result.tokenAccuracy)}  (reference ${info.targetTokenizer === 'chars' ? 'characters' : 'words'} the translation has at the same position)`],
  ], 'll').map((l) => `  ${l}`).join('\n'));
  print('');
  print('by source length (tokens):');
  print(table([['length', 'pairs', 'exact', 'tok-acc'],
    ...groups.map((g) => [String(g.length), String(g.pairs), pct(g.exactMatch), pct(g.tokenAccuracy)])], 'rrrr').map((l) => `  ${l}`).join('\n'));
}
