// §3.3's plain-against-attention table: for each model, the held-out figures of its last
// evaluation (alignment accuracy, exact match overall and by source length), and the alignment
// readout of one translated sentence against the grammar's known alignment. DOM only; the
// numbers come from the worker (evaluate(), heldOut()).
import type { EvaluateResult, HeldOutExample, TranslateResult } from '../../../shared/types/seq2seq';
import { el } from './dom';
import { fill } from '../i18n';

export interface CompareRow {
  /** 'attention' or 'plain' (data-model in the DOM, for tests) */
  id: string;
  label: string;
  step: number;
  evaluation: EvaluateResult | null;
  /** time spent in the worker's train calls so far */
  trainMs: number;
}

const percent = (x: number) => `${(100 * x).toFixed(1)}%`;

/**
 * Of the translation's words that equal the reference word at the same position and have an
 * alignment, how many have their attention argmax on an aligned source word (null when the model
 * has no attention or the sentence is not a held-out example).
 */
export function sentenceAlignment(result: TranslateResult, example: HeldOutExample | undefined): { hits: number; scored: number } | null {
  if (!example || !result.steps || example.alignment.length === 0) return null;
  const reference = example.target.split(' ');
  let hits = 0;
  let scored = 0;
  result.steps.forEach((step, t) => {
    const aligned = example.alignment[t];
    if (!aligned || aligned.length === 0 || step.token !== reference[t] || step.attention.length === 0) return;
    let argmax = 0;
    for (let s = 1; s < step.attention.length; s++) if (step.attention[s] > step.attention[argmax]) argmax = s;
    scored++;
    if (aligned.includes(argmax)) hits++;
  });
  return scored > 0 ? { hits, scored } : null;
}

export class CompareView {
  readonly element = el('div', 'tr-compare');
  readonly #t: (key: string) => string;
  readonly #empty = el('p', 'tr-note tr-compare-empty');
  readonly #table = el('table', 'tr-compare-table');

  constructor(t: (key: string) => string) {
    this.#t = t;
    this.element.dataset.testid = 's2s-compare';
    this.element.append(el('h3', undefined, t('tr.compare.title')), this.#empty, this.#table);
  }

  /** `chars`: lengths count characters (dates), not words. */
  update(rows: readonly CompareRow[], chars = false): void {
    const t = this.#t;
    const evaluated = rows.filter((r) => r.evaluation);
    this.#empty.textContent = t('tr.compare.empty');
    this.#empty.hidden = evaluated.length > 0;
    this.#table.hidden = evaluated.length === 0;
    if (evaluated.length === 0) return;
    const buckets = evaluated[0].evaluation!.exactMatchByLength;
    const head = el('tr');
    const headers = [t('tr.compare.model'), t('tr.compare.steps'), t('tr.compare.alignment'), t('tr.compare.exact')];
    for (const b of buckets) headers.push(fill(t(chars ? 'tr.compare.bucket.chars' : 'tr.compare.bucket'), { min: b.minLength, max: b.maxLength, n: b.examples }));
    for (const h of headers) head.append(el('th', undefined, h));
    const body = rows.map((r) => {
      const tr = el('tr');
      tr.dataset.model = r.id;
      const e = r.evaluation;
      // The figures as data, for tests and the browser measurement (scripts/alignment-browser.mjs).
      if (e) tr.dataset.evaluation = JSON.stringify({ step: r.step, trainMs: Math.round(r.trainMs), ...e });
      const cells = [r.label, String(e ? r.step : '—')];
      if (e) {
        cells.push(e.alignmentAccuracy === null ? t('tr.compare.noAlignment') : percent(e.alignmentAccuracy), percent(e.exactMatch));
        for (const b of e.exactMatchByLength) cells.push(b.examples ? percent(b.exactMatch) : '—');
      } else {
        cells.push(...headers.slice(2).map(() => '—'));
      }
      cells.forEach((c, i) => {
        const td = el(i === 0 ? 'th' : 'td', undefined, c);
        if (i === 2) td.dataset.testid = `s2s-alignment-${r.id}`;
        if (i === headers.length - 1) td.dataset.testid = `s2s-longest-${r.id}`;
        tr.append(td);
      });
      return tr;
    });
    const caption = el('caption', undefined, fill(t('tr.compare.caption'), { n: evaluated[0].evaluation!.examples }));
    const thead = el('thead');
    thead.append(head);
    const tbody = el('tbody');
    tbody.append(...body);
    this.#table.replaceChildren(caption, thead, tbody);
  }
}
