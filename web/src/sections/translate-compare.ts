// §3.3's plain-against-attention table: for each model, the held-out figures of its last
// evaluation (alignment accuracy, exact match overall and by source length), and the alignment
// readout of one translated sentence against the grammar's known alignment. DOM only; the
// numbers come from the worker (evaluate(), heldOut()). Loaded once the model has trained, its
// strings with it (the section shows the table's title and empty state until then).
import type { EvaluateResult, HeldOutExample, TranslateResult } from '#types/seq2seq';
import type { Lang } from '../i18n';
import { fill, translator, type Strings } from '../i18n';
import { markCutEdges } from '../cut-edges';
import { el } from './dom';

export const COMPARE_STRINGS: Strings = {
  en: {
    'translate.compare.model': 'model',
    'translate.compare.steps': 'steps',
    'translate.compare.alignment': 'alignment accuracy',
    'translate.compare.exact': 'exact match',
    'translate.compare.bucket': '{min}–{max} words ({n})',
    'translate.compare.bucket.chars': '{min}–{max} characters ({n})',
    'translate.compare.noAlignment': 'none (no attention)',
    'translate.compare.noAlignmentData': '— (no word alignments in this task)',
    'translate.compare.caption.training':
      '{n} examples: the training data itself (the note has no others). Alignment accuracy: content words whose attention peaks on the source word they translate. Exact match: the greedy translation equals the reference.',
    'translate.compare.caption':
      '{n} held-out examples. Alignment accuracy: content words whose attention peaks on the source word they translate. Exact match: the greedy translation equals the reference.',
    'translate.compare.attention': 'attention ({score})',
    'translate.compare.plain': 'plain (no attention)',
    'translate.sentenceAlignment': 'This sentence: {hits} of {scored} content words put their largest attention weight on the source word they translate.',
  },
  zh: {
    'translate.compare.model': '模型',
    'translate.compare.steps': '步数',
    'translate.compare.alignment': '对齐准确率',
    'translate.compare.exact': '完全匹配',
    'translate.compare.bucket': '{min}–{max} 个词（{n}）',
    'translate.compare.bucket.chars': '{min}–{max} 个字符（{n}）',
    'translate.compare.noAlignment': '无（没有注意力）',
    'translate.compare.noAlignmentData': '—（这个任务没有词对齐）',
    'translate.compare.caption.training':
      '{n} 个样例：就是训练数据本身（笔记中没有别的句子）。对齐准确率：注意力峰值落在所译源词上的实词比例。完全匹配：贪心解码的译文与参考译文相同。',
    'translate.compare.caption':
      '{n} 个测试样例。对齐准确率：注意力峰值落在所译源词上的实词比例。完全匹配：贪心解码的译文与参考译文相同。',
    'translate.compare.attention': '注意力（{score}）',
    'translate.compare.plain': '普通（无注意力）',
    'translate.sentenceAlignment': '这个句子：{scored} 个实词中有 {hits} 个把最大的注意力权重放在它所翻译的源词上。',
  },
};

export interface CompareRow {
  /** 'attention' or 'plain' (data-model in the DOM, for tests) */
  id: 'attention' | 'plain';
  /** the attention model's score function */
  score: string;
  /** its name in the reader's language (the section's score menu), if not `score` */
  scoreLabel?: string;
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

/** The readout of sentenceAlignment in `lang`, or '' when there is none. */
export function alignmentReadout(aligned: { hits: number; scored: number } | null, lang: Lang): string {
  return aligned ? fill(translator(lang, COMPARE_STRINGS)('translate.sentenceAlignment'), aligned) : '';
}

/** A row's figures as data, for tests and the browser measurement (scripts/alignment-browser.mjs). */
function evaluationData(r: CompareRow): string {
  return JSON.stringify({ step: r.step, trainMs: Math.round(r.trainMs), ...r.evaluation });
}

/** Keeps `box`'s data-cut (cut-edges.ts) up to date as it scrolls, resizes or its content changes. Returns what stops watching. */
function watchCutEdges(box: HTMLElement): () => void {
  const update = (): void => markCutEdges(box, box.scrollLeft > 1, box.scrollLeft + box.clientWidth < box.scrollWidth - 1);
  box.addEventListener('scroll', update, { passive: true });
  const resized = new ResizeObserver(update);
  resized.observe(box);
  // a rebuilt table changes the scroll width, not the box's size
  const rebuilt = new MutationObserver(() => {
    for (const child of box.children) resized.observe(child);
    update();
  });
  rebuilt.observe(box, { childList: true });
  for (const child of box.children) resized.observe(child);
  return () => {
    box.removeEventListener('scroll', update);
    resized.disconnect();
    rebuilt.disconnect();
  };
}

export class CompareView {
  readonly #t: (key: string) => string;
  readonly #empty: HTMLElement;
  readonly #table = el('table', 'translate-compare-table');
  /** scrolls the table sideways on a phone (its cut edge fades: cut-edges.ts) */
  readonly #scroll = el('div', 'translate-compare-scroll');
  /** what the table shows (everything but the training time), to rebuild it only when that changes */
  #shown: { key: string; evaluations: (EvaluateResult | null)[] } = { key: '', evaluations: [] };
  /** the rows as built, by model id, for the training time in their data */
  #rowElements = new Map<string, HTMLTableRowElement>();
  readonly #stopCutEdges: () => void;

  /** Fills `host` (the section's table area; `empty` is its empty-state line). */
  constructor(host: HTMLElement, empty: HTMLElement, lang: Lang) {
    this.#t = translator(lang, COMPARE_STRINGS);
    this.#empty = empty;
    this.#scroll.append(this.#table);
    host.append(this.#scroll);
    this.#stopCutEdges = watchCutEdges(this.#scroll);
  }

  destroy(): void {
    this.#stopCutEdges();
  }

  /** `chars`: lengths count characters (dates), not words. */
  update(rows: readonly CompareRow[], chars = false): void {
    const t = this.#t;
    const evaluated = rows.filter((r) => r.evaluation);
    this.#empty.hidden = evaluated.length > 0;
    this.#table.hidden = evaluated.length === 0;
    if (evaluated.length === 0) return;
    // The section redraws many times a second while training; the figures change only at each
    // evaluation. Between two, only the rows' training time (in their data) moves.
    const shown = { key: JSON.stringify([chars, rows.map((r) => [r.id, r.score, r.scoreLabel, r.step])]), evaluations: rows.map((r) => r.evaluation) };
    if (shown.key === this.#shown.key && shown.evaluations.every((e, i) => e === this.#shown.evaluations[i])) {
      for (const r of rows) {
        const tr = this.#rowElements.get(r.id);
        if (tr && r.evaluation) tr.dataset.evaluation = evaluationData(r);
      }
      return;
    }
    this.#shown = shown;
    this.#rowElements.clear();
    const buckets = evaluated[0].evaluation!.exactMatchByLength;
    const head = el('tr');
    const headers = [t('translate.compare.model'), t('translate.compare.steps'), t('translate.compare.alignment'), t('translate.compare.exact')];
    for (const b of buckets) headers.push(fill(t(chars ? 'translate.compare.bucket.chars' : 'translate.compare.bucket'), { min: b.minLength, max: b.maxLength, n: b.examples }));
    for (const h of headers) head.append(el('th', undefined, h));
    const body = rows.map((r) => {
      const tr = el('tr');
      tr.dataset.model = r.id;
      this.#rowElements.set(r.id, tr);
      const e = r.evaluation;
      if (e) tr.dataset.evaluation = evaluationData(r);
      const label = r.id === 'plain' ? t('translate.compare.plain') : fill(t('translate.compare.attention'), { score: r.scoreLabel ?? r.score });
      const cells = [label, String(e ? r.step : '—')];
      if (e) {
        // null: the plain model has no attention, or the task no alignments (dates)
        const noAlignment = r.score === 'none' || r.id === 'plain' ? 'translate.compare.noAlignment' : 'translate.compare.noAlignmentData';
        cells.push(e.alignmentAccuracy === null ? t(noAlignment) : percent(e.alignmentAccuracy), percent(e.exactMatch));
        for (const b of e.exactMatchByLength) cells.push(b.examples ? percent(b.exactMatch) : '—');
      } else {
        cells.push(...headers.slice(2).map(() => '—'));
      }
      cells.forEach((c, i) => {
        const td = el(i === 0 ? 'th' : 'td', undefined, c);
        if (i === 2) td.dataset.testid = `translate-alignment-${r.id}`;
        if (i === headers.length - 1) td.dataset.testid = `translate-longest-${r.id}`;
        tr.append(td);
      });
      return tr;
    });
    const first = evaluated[0].evaluation!;
    const caption = el('caption', undefined, fill(t(first.heldOutIsTrainingData ? 'translate.compare.caption.training' : 'translate.compare.caption'), { n: first.examples }));
    const thead = el('thead');
    thead.append(head);
    const tbody = el('tbody');
    tbody.append(...body);
    this.#table.replaceChildren(caption, thead, tbody);
  }
}
