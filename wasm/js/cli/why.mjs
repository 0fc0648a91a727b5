// `attention-lab translate`'s questions to the model: --force-attention / --force-token
// (interventions, decoded beside the original) and --attribution (gradients beside attention).
// Steps and source tokens are counted from 1 here, as the tables show them; the API counts from 0.
import { UsageError } from './options.mjs';
import { show, table } from './format.mjs';
/** @import { Print } from './format.mjs' */
/** @import { OptionValues } from './options.mjs' */
/**
 * @import {
 *  AttributionOptions, IntervenedDecodeStep, InterventionComparison, SourceToken,
 *  TranslationAttribution
 * } from '../types/attention-lab.js'
 */

/**
 * An intervention of the command line (steps and source tokens from 0, as the API counts).
 * @typedef {{ step: number, kind: 'force-attention', source: number } | { step: number, kind: 'force-token', token: string }} CliIntervention
 */
/**
 * A translation with interventions: greedy, with the plain one beside it.
 * @typedef {{ text: string, steps: IntervenedDecodeStep[], intervention: InterventionComparison }} Intervened
 */

/**
 * The interventions of the options, source tokens checked against the sentence of the plain
 * translation `plain`. Steps are checked by the core against the intervened decoding, which a
 * forced word may make longer than the plain one.
 * @param {Pick<OptionValues<'translate'>, 'force-attention' | 'force-token'>} o
 * @param {{ source: SourceToken[] }} plain
 * @returns {CliIntervention[]}
 */
export function interventionsOf(o, plain) {
  const S = plain.source.length;
  return [
    ...o['force-attention'].map(/** @returns {CliIntervention} */ ({ step, value }) => {
      if (value > S) throw new UsageError(`--force-attention: source token ${value} is beyond the sentence, which has ${S} token${S === 1 ? '' : 's'}`);
      return { step: step - 1, kind: 'force-attention', source: value - 1 };
    }),
    ...o['force-token'].map(/** @returns {CliIntervention} */ ({ step, value }) => ({ step: step - 1, kind: 'force-token', token: value })),
  ];
}

/**
 * attribution()'s options for --attribution METHOD: --ig-steps for integrated gradients only.
 * @param {Pick<OptionValues<'translate'>, 'attribution' | 'ig-steps'>} o
 * @param {number | undefined} maxLength
 * @returns {AttributionOptions}
 */
export const attributionOptions = (o, maxLength) =>
  ({ method: o.attribution, ...(o.attribution === 'integrated-gradients' ? { steps: o['ig-steps'] } : {}), maxLength });

/**
 * @param {CliIntervention} v
 * @param {readonly string[]} labels
 */
const described = (v, labels) => (v.kind === 'force-attention'
  ? `step ${v.step + 1}: all the attention on source token ${v.source + 1} (${labels[v.source]})`
  : `step ${v.step + 1}: the word ${show(v.token)} instead of the most probable one`);

/**
 * Prints the intervened decoding beside the original.
 * @param {Intervened} r
 * @param {CliIntervention[]} interventions
 * @param {readonly string[]} labels
 * @param {Print} print
 */
export function printIntervention(r, interventions, labels, print) {
  const { original, changed, firstChange } = r.intervention;
  print(`original:   ${original.text === '' ? '(empty translation)' : original.text}`);
  print(`intervened: ${r.text === '' ? '(empty translation)' : r.text}` +
    (firstChange < 0 ? '  (the same words)' : `  (changed from step ${firstChange + 1})`));
  print('');
  print('interventions:');
  for (const v of interventions) print(`  ${described(v, labels)}`);
  print('');
  print('decoding: greedy, intervened (* a changed word; ! forced)');
  const T = Math.max(r.steps.length, original.steps.length);
  const rows = [['step', 'original', 'intervened', 'prob', '']];
  for (let t = 0; t < T; t++) {
    const s = r.steps[t];
    rows.push([String(t + 1), original.steps[t] ? show(original.steps[t].token) : '', s ? show(s.token) : '',
      s ? s.prob.toFixed(3) : '', s ? `${changed[t] ? '*' : ''}${s.forcedToken || s.editedAttention ? '!' : ''}` : '']);
  }
  print(table(rows, 'rllrl').map((l) => `  ${l}`).join('\n'));
}

/**
 * Prints the attribution table: one row per output word, one column per source token, and ρ
 * (with the word's attention; a Transformer's: its rollout onto the source).
 * @param {TranslationAttribution} a
 * @param {readonly string[]} labels
 * @param {'rnn' | 'transformer'} arch
 * @param {Print} print
 */
export function printAttribution(a, labels, arch, print) {
  const [T, S] = a.scores.shape;
  const what = a.method === 'integrated-gradients'
    ? `integrated gradients (${a.steps} steps from the zero embedding)` : 'gradient × input';
  const attention = arch === 'transformer' ? 'attention rollout onto the source' : 'attention';
  print('');
  print(`attribution: ${what} of each output word's log-probability to the source ${arch === 'transformer' ? 'token embeddings (before √dModel and the positions)' : 'embeddings'}`);
  print(`(rows: output words, columns: source tokens; ρ: Spearman's rank correlation with the word's ${attention})`);
  const header = ['', ...labels, ...(a.attention ? ['ρ'] : [])];
  const body = [];
  for (let t = 0; t < T; t++) {
    const row = Array.from(a.scores.data.subarray(t * S, (t + 1) * S), (v) => v.toFixed(3));
    const rho = a.rankCorrelation[t];
    if (a.attention) row.push(rho === null ? '-' : rho.toFixed(2));
    body.push([show(a.words[t]), ...row]);
  }
  print(table([header, ...body]).map((l) => `  ${l}`).join('\n'));
  if (a.method === 'integrated-gradients') {
    const baseline = /** @type {Float32Array} */ (a.baselineLogProb); // integrated gradients start from one
    let worst = 0;
    for (let t = 0; t < T; t++) {
      let sum = 0;
      for (let s = 0; s < S; s++) sum += a.scores.data[t * S + s];
      worst = Math.max(worst, Math.abs(sum - (a.logProb[t] - baseline[t])));
    }
    print(`  completeness: |Σ attribution − (log p(x) − log p(0))| ≤ ${worst.toExponential(2)} over the words`);
  }
}

