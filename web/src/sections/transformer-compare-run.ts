// §4's comparison, measured live in the page's worker on the section's task and seed: the plain
// Seq2Seq and the RNN with attention (§3.3's recipe for the task: cell, size, rate, batch and steps)
// are trained when the reader asks, then all three models are scored on the same held-out examples.
// Loaded by the section's ComparePanel (transformer-compare.ts) when the reader asks, not with the
// section: a widget downloads this, its chart and the recurrent trainer only on request.
// The figure is greedy exact match against source length (the task's length buckets, as §1's figure
// is accuracy against length); the table adds parameters, steps, and the worker's milliseconds per
// training step (each model's own batch, as its recipe trains it). The Transformer's session reports
// no exact match by length (nor its held-out examples), so its row is counted here: the recurrent
// model's held-out examples (the same task and seed: the same examples) are translated greedily by
// the Transformer, compared with their targets and bucketed as the recurrent models' are; the
// total is checked against the core's own evaluate() of the Transformer.
import type { EvaluateResult, HeldOutExample, LengthBucketResult } from '#types/seq2seq';
import { chartPictures } from '../charts/deferred-chart';
import { LineChart } from '../charts/line-chart';
import { Figure } from '../figure';
import { fill } from '../i18n';
import type { LabClient } from '../worker/protocol';
import { el } from './dom';
import { RECIPE_STEPS, RECIPES, TranslateTrainer } from './translate-train';
import type { TransformerTask } from './transformer-recipes';
import type { TransformerTrainer } from './transformer-train';

type T = (key: string) => string;

export interface CompareRow {
  id: 'plain' | 'attention' | 'transformer';
  parameters: number;
  steps: number;
  batch: number;
  msPerStep: number | null;
  evaluation: EvaluateResult;
}

/** Greedy exact match of `outputs` against the examples' targets, per source-length bucket. */
export function exactMatchByLength(examples: readonly HeldOutExample[], outputs: readonly string[], buckets: readonly LengthBucketResult[], chars: boolean): { exactMatch: number; byLength: LengthBucketResult[] } {
  const byLength = buckets.map((b) => ({ minLength: b.minLength, maxLength: b.maxLength, examples: 0, exactMatch: 0 }));
  let hits = 0;
  examples.forEach((e, i) => {
    const length = chars ? [...e.source].length : e.source.split(' ').length;
    const hit = outputs[i] === e.target ? 1 : 0;
    hits += hit;
    const bucket = byLength.find((b) => length >= b.minLength && length <= b.maxLength);
    if (bucket) {
      bucket.examples++;
      bucket.exactMatch += hit;
    }
  });
  for (const b of byLength) b.exactMatch = b.examples > 0 ? b.exactMatch / b.examples : 0;
  return { exactMatch: examples.length ? hits / examples.length : 0, byLength };
}

const COLORS: Record<CompareRow['id'], string> = { plain: '#c2410c', attention: '#1d4ed8', transformer: '#15803d' };
const percent = (v: number) => `${(v * 100).toFixed(1)}%`;

/** Trains the two recurrent models with §3.3's recipe for `task` and scores all three. */
export async function measureComparison(
  lab: LabClient,
  task: TransformerTask,
  seed: number,
  transformer: TransformerTrainer,
  onStatus: (text: string) => void,
  t: T,
): Promise<CompareRow[]> {
  const recipe = RECIPES[task];
  const steps = RECIPE_STEPS[task];
  const rows: CompareRow[] = [];
  let examples: HeldOutExample[] = [];
  for (const id of ['plain', 'attention'] as const) {
    const trainer = new TranslateTrainer(lab, { task, cell: recipe.cell, hidden: recipe.hidden, score: id === 'plain' ? 'none' : 'dot', lr: recipe.lr, seed });
    try {
      onStatus(fill(t('transformer.compare.training'), { model: t(`transformer.compare.${id}`), steps }));
      await trainer.train(steps);
      onStatus(fill(t('transformer.compare.scoring'), { model: t(`transformer.compare.${id}`) }));
      const evaluation = await trainer.evaluate();
      const info = trainer.info!;
      if (id === 'attention') examples = await trainer.model!.heldOut(evaluation.examples);
      rows.push({ id, parameters: info.parameterCount, steps: trainer.step, batch: info.batchSize, msPerStep: trainer.trainMs / trainer.step, evaluation });
    } finally {
      await trainer.delete();
    }
  }
  onStatus(fill(t('transformer.compare.scoring'), { model: t('transformer.compare.transformer') }));
  const core = await transformer.evaluate();
  const outputs: string[] = [];
  for (const e of examples) outputs.push((await transformer.translate(e.source, { topK: 1 })).text);
  const chars = transformer.info?.sourceTokenizer === 'chars';
  const counted = exactMatchByLength(examples, outputs, rows[0].evaluation.exactMatchByLength, chars);
  // the page's count of the same examples must agree with the core's evaluate()
  if (Math.abs(counted.exactMatch - core.exactMatch) > 1e-9 || examples.length !== core.examples) {
    throw new Error(`the Transformer's exact match counted here (${counted.exactMatch} of ${examples.length}) differs from the core's (${core.exactMatch} of ${core.examples})`);
  }
  const evaluation: EvaluateResult = { ...core, alignmentAccuracy: null, alignedTokens: 0, exactMatchByLength: counted.byLength };
  const info = transformer.info!;
  rows.push({ id: 'transformer', parameters: info.parameterCount, steps: transformer.step, batch: info.batchSize, msPerStep: transformer.msPerStep, evaluation });
  return rows;
}

/** The comparison's chart (exact match by length), its caption, export menu and table. */
export class CompareView extends Figure<CompareRow[]> {
  readonly element = el('div', 'transformer-compare-result');
  readonly #t: T;
  readonly #chart: LineChart;
  readonly #table = el('table', 'transformer-compare-table');
  readonly #data = el('output', 'transformer-compare-data');
  /** what the lines compare: each model's steps and batch (they differ) */
  readonly #chartCaption = el('p', 'transformer-compare-chart-caption');
  #rows: CompareRow[] = [];

  constructor(host: HTMLElement, t: T) {
    super({
      title: t('transformer.compare.chart'),
      t,
      fileName: 'transformer-comparison',
      exports: {
        ...chartPictures(() => this.#chart.built()),
        table: () => {
          const buckets = this.#rows[0]?.evaluation.exactMatchByLength ?? [];
          return {
            rowLabels: this.#rows.map((r) => t(`transformer.compare.${r.id}`)),
            colLabels: buckets.map((b) => `${t('transformer.compare.exact')} ${b.minLength}–${b.maxLength}`),
            values: this.#rows.flatMap((r) => r.evaluation.exactMatchByLength.map((b) => b.exactMatch)),
          };
        },
        json: () => JSON.parse(this.#data.value || '[]'),
      },
    });
    this.#t = t;
    const box = el('div', 'transformer-compare-chart');
    this.#chart = new LineChart(box, {
      label: t('transformer.compare.chart'),
      x: { kind: 'category', title: t('transformer.compare.axis.length') },
      y: { min: 0, max: 1, title: t('transformer.compare.axis.exact'), format: (v) => `${Math.round(v * 100)}%`, readout: percent },
      legend: true,
    });
    this.#data.hidden = true;
    this.#data.dataset.testid = 'transformer-compare-data';
    const scroll = el('div', 'transformer-table-scroll');
    scroll.append(this.#table);
    this.#chartCaption.dataset.testid = 'transformer-compare-chart-caption';
    this.element.append(box, this.#chartCaption, this.menu!, scroll, this.#data);
    host.append(this.element);
  }

  update(rows: CompareRow[]): void {
    const t = this.#t;
    this.#rows = rows;
    const buckets = rows[0]?.evaluation.exactMatchByLength ?? [];
    this.#chart.update({
      categories: buckets.map((b) => (b.minLength === b.maxLength ? String(b.minLength) : `${b.minLength}–${b.maxLength}`)),
      series: rows.map((r) => ({
        label: t(`transformer.compare.${r.id}`),
        color: COLORS[r.id],
        points: r.evaluation.exactMatchByLength.map((b, x) => ({ x, y: b.examples > 0 ? b.exactMatch : null })),
        marker: r.id === 'plain' ? 'triangle' : 'circle',
        markerRadius: 4,
        width: 2.5,
      })),
    });
    const head = el('tr');
    for (const key of ['transformer.compare.model', 'transformer.compare.params', 'transformer.compare.steps', 'transformer.compare.ms', 'transformer.compare.exact', 'transformer.compare.tokens']) head.append(el('th', undefined, t(key)));
    const body = rows.map((r) => {
      const tr = el('tr');
      tr.dataset.model = r.id;
      tr.append(
        el('th', undefined, t(`transformer.compare.${r.id}`)),
        el('td', undefined, r.parameters.toLocaleString('en-US')),
        el('td', undefined, fill(t('transformer.compare.stepsOf'), { steps: r.steps, batch: r.batch })),
        el('td', undefined, r.msPerStep === null ? '–' : r.msPerStep.toFixed(1)),
        el('td', undefined, percent(r.evaluation.exactMatch)),
        el('td', undefined, percent(r.evaluation.tokenAccuracy)),
      );
      return tr;
    });
    const caption = el('caption', undefined, fill(t('transformer.compare.caption'), { examples: rows[0]?.evaluation.examples ?? 0 }));
    const runs = rows.map((r) => fill(t('transformer.compare.runOf'), { model: t(`transformer.compare.${r.id}`), steps: r.steps, batch: r.batch }));
    this.#chartCaption.textContent = fill(t('transformer.compare.chart.caption'), { runs: runs.join(t('transformer.compare.runSep')), examples: rows[0]?.evaluation.examples ?? 0 });
    this.#table.replaceChildren(caption, head, ...body);
    this.#data.value = JSON.stringify(rows.map((r) => ({ ...r, evaluation: { exactMatch: r.evaluation.exactMatch, tokenAccuracy: r.evaluation.tokenAccuracy, examples: r.evaluation.examples, exactMatchByLength: r.evaluation.exactMatchByLength } })));
  }

  destroy(): void {
    this.#chart.destroy();
  }
}

