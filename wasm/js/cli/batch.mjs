// The CLI's jobs on many sentences with the model loaded once: `translate --input FILE|-` (one
// sentence a line → one translation, or one JSON object, a line) and `evaluate --pairs FILE` (your
// own test pairs: exact match and token accuracy of the greedy translations, by source length).
import { RuntimeError, UsageError } from './options.mjs';
import { readText } from './files.mjs';
import { attributionOptions } from './why.mjs';
import { cliMessage } from './messages.mjs';
import { pct, table } from './format.mjs';

const compact = (value) => JSON.stringify(value, (_k, v) => (ArrayBuffer.isView(v) ? Array.from(v) : v));

/** The lines of a text file: a final newline ends the last line; CRLF is accepted. */
function linesOf(text) {
  const lines = text.split('\n').map((l) => l.replace(/\r$/, ''));
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/**
 * Translates every line of --input. A line that cannot be translated (empty, too long, …) is
 * reported with its number (stderr, or a {line, error} object with --json) and the others go on,
 * so that output line N is always input line N; the exit code is then 1.
 */
export function translateLines(model, o, options, print) {
  const lines = linesOf(readText(o.input, 'input'));
  if (lines.length === 0) {
    throw new UsageError(`--input '${o.input}' has no lines to translate${o.input === '-' ? ' (standard input was empty or closed)' : ''}`);
  }
  let failed = 0;
  lines.forEach((sentence, i) => {
    try {
      const r = model.translate(sentence, options);
      if (!o.json) return print(r.text);
      const attribution = o.attribution
        ? model.attribution(sentence, attributionOptions(o, options.maxLength)) : undefined;
      print(compact({ line: i + 1, ...r, ...(attribution ? { attribution } : {}) }));
    } catch (e) {
      ++failed;
      const message = cliMessage(e.message);
      if (o.json) return print(compact({ line: i + 1, error: message }));
      print('');
      process.stderr.write(`attention-lab: --input '${o.input}' line ${i + 1}: ${message}\n`);
    }
  });
  if (failed > 0) throw new RuntimeError(`${failed} of the ${lines.length} lines of --input '${o.input}' could not be translated (named above)`);
}

/** The test pairs of --pairs: [{line, source, target}], with the format of `train --pairs`. */
function testPairs(path) {
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

const tokensOf = (text, tokenizer) => (tokenizer === 'chars' ? Array.from(text.replace(/\s+/g, '')) : text.trim().split(/\s+/));

/**
 * evaluate --pairs: each source translated greedily and compared with its reference, token by
 * token in the model's target tokens: exact match (every token and the length equal) and token
 * accuracy (reference tokens the translation has at the same position), overall and by the
 * source's length in tokens.
 */
export function evaluatePairs(model, o, print) {
  const info = model.info();
  let pairs = testPairs(o.pairs);
  if (o.count !== undefined) pairs = pairs.slice(0, o.count);
  const byLength = new Map();
  let exact = 0, right = 0, tokens = 0;
  for (const p of pairs) {
    let r;
    try {
      r = model.translate(p.source);
    } catch (e) {
      throw new UsageError(`--pairs '${o.pairs}' line ${p.line}: ${cliMessage(e.message)}`);
    }
    const out = r.steps.map((s) => s.token).filter((t, i, all) => !(i === all.length - 1 && r.finished));
    const ref = tokensOf(p.target, info.targetTokenizer);
    const hits = ref.filter((t, i) => out[i] === t).length;
    const same = hits === ref.length && out.length === ref.length;
    const g = byLength.get(r.source.length) ?? { length: r.source.length, pairs: 0, exact: 0, right: 0, tokens: 0 };
    g.pairs++; g.exact += same; g.right += hits; g.tokens += ref.length;
    byLength.set(g.length, g);
    exact += same; right += hits; tokens += ref.length;
  }
  const groups = [...byLength.values()].sort((a, b) => a.length - b.length)
    .map((g) => ({ length: g.length, pairs: g.pairs, exactMatch: g.exact / g.pairs, tokenAccuracy: g.right / g.tokens }));
  const result = { pairs: pairs.length, exactMatch: exact / pairs.length, tokenAccuracy: right / tokens, byLength: groups };
  if (o.json) return print(JSON.stringify({ file: o.pairs, ...result }, null, 2));
  print(`${pairs.length} pairs of ${o.pairs}, translated greedily:`);
  print(table([
    ['exact match', `${pct(result.exactMatch)}  (the translation equals the reference)`],
    ['token accuracy', `${pct(result.tokenAccuracy)}  (reference ${info.targetTokenizer === 'chars' ? 'characters' : 'words'} the translation has at the same position)`],
  ], 'll').map((l) => `  ${l}`).join('\n'));
  print('');
  print('by source length (tokens):');
  print(table([['length', 'pairs', 'exact', 'tok-acc'],
    ...groups.map((g) => [String(g.length), String(g.pairs), pct(g.exactMatch), pct(g.tokenAccuracy)])], 'rrrr').map((l) => `  ${l}`).join('\n'));
}
