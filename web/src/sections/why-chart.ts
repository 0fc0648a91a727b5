// §1's chart: token accuracy (solid) and exact match (dotted) against input length for the plain
// and the attention model, drawn by Chart.js (line-chart.ts): built off the mount task, at most once
// a frame while training; hovering shows every series' value at that length. After a settings
// change the last finished run's token accuracy stays, thin and dash-dotted, so that the reader
// compares the two runs (a GRU against an LSTM) on one chart. Its export menu goes under it: the
// picture, and the numbers by length.
import { chartPictures } from '../charts/deferred-chart';
import { LineChart, type LineSeries } from '../charts/line-chart';
import { Figure } from '../figure';
import { fill } from '../i18n';
import type { WhySnapshot } from './why-run';

const PLAIN = '#c2410c';
const ATTENTION = '#1d4ed8';
const CHANCE = '#6b7280';
/** the models' colours, the same in §1's two charts */
export const WHY_COLORS = { plain: PLAIN, attention: ATTENTION, chance: CHANCE } as const;
/** a blind guess among the task's 20 letters */
export const WHY_CHANCE = 1 / 20;

/** A finished run kept beside the next one: its snapshot, and its cell, which with its longest string names it. */
export interface WhyPrevious {
  readonly snapshot: WhySnapshot;
  readonly cell: string;
}

/** the accuracy axis's ticks and its readout, in §1's two charts */
export const percent = (v: number) => `${Math.round(v * 100)}%`;
export const percentPrecise = (v: number) => `${(v * 100).toFixed(1)}%`;

export class WhyChart extends Figure<WhySnapshot> {
  readonly #chart: LineChart;
  /** the last snapshot drawn: what the exports hold */
  #snapshot: WhySnapshot | null = null;
  #previous: WhyPrevious | null = null;
  readonly #labels: { plain: string; attention: string; exactPlain: string; exactAttention: string; chance: string; previous: string };
  /** the lengths the x axis has its ticks at */
  #lengths = '';

  constructor(host: HTMLElement, t: (key: string) => string) {
    super({
      title: t('why.chartLabel'),
      t,
      fileName: 'why-accuracy-by-length',
      exports: {
        ...chartPictures(() => this.#chart.built()),
        table: () => {
          const s = this.#snapshot;
          if (!s) return null;
          const colLabels = ['plain token accuracy', 'attention token accuracy', 'plain exact match', 'attention exact match'];
          const values = s.lengths.flatMap((_, i) => [s.plain[i], s.attention[i], s.exactPlain[i], s.exactAttention[i]].map((v) => v ?? NaN));
          return { rowLabels: s.lengths.map(String), colLabels, values };
        },
        json: () => this.#snapshot,
      },
    });
    const box = document.createElement('div');
    box.className = 'why-chart';
    host.append(box);
    this.#labels = {
      plain: t('why.plain'),
      attention: t('why.attention'),
      exactPlain: `${t('why.plain')} · ${t('why.exact')}`,
      exactAttention: `${t('why.attention')} · ${t('why.exact')}`,
      chance: t('why.chance.line'),
      previous: t('why.previous'),
    };
    this.#chart = new LineChart(box, {
      label: t('why.chartLabel'),
      // a log scale: each doubling of the length (5 → 10 → 20 → 40) is the same distance, the
      // ticks at the measured lengths (update() sets them: they follow the longest length)
      x: { kind: 'log', min: 4, max: 48, title: t('why.axis.length') },
      y: { min: 0, max: 1, title: t('why.axis.accuracy'), format: percent, readout: percentPrecise },
      legend: true,
    });
    host.append(this.menu!);
  }

  /** The finished run drawn beside the current one (null: none). */
  setPrevious(previous: WhyPrevious | null): void {
    this.#previous = previous;
    if (this.#snapshot) this.update(this.#snapshot);
  }

  update(s: WhySnapshot): void {
    this.#snapshot = s;
    const previous = this.#previous;
    // the ticks at the lengths of both runs (a run to 60 beside one to 40)
    const ticks = [...new Set([...s.lengths, ...(previous?.snapshot.lengths ?? [])])].sort((a, b) => a - b);
    const lengths = ticks.join(',');
    if (lengths !== this.#lengths && ticks.length) {
      this.#lengths = lengths;
      // a fifth of a doubling beyond the first and last length: their markers are not cut in half
      this.#chart.setLogRange(ticks[0] / 2 ** 0.2, ticks[ticks.length - 1] * 2 ** 0.2, ticks);
    }
    const line = (label: string, color: string, values: readonly (number | null)[], dashed: boolean): LineSeries => ({
      label,
      color,
      points: values.map((y, i) => ({ x: s.lengths[i], y })),
      dash: dashed ? [3, 3] : undefined,
      width: dashed ? 1.5 : 2.5,
      marker: color === PLAIN ? 'triangle' : 'circle',
      markerRadius: dashed ? 2 : 4,
    });
    const l = this.#labels;
    this.#chart.update({
      series: [
        { label: l.chance, color: CHANCE, points: s.lengths.map((x) => ({ x, y: WHY_CHANCE })), dash: [6, 4], width: 1.5, marker: 'none' },
        line(l.plain, PLAIN, s.plain, false),
        line(l.attention, ATTENTION, s.attention, false),
        line(l.exactPlain, PLAIN, s.exactPlain, true),
        line(l.exactAttention, ATTENTION, s.exactAttention, true),
        ...(previous ? this.#previousSeries(previous) : []),
      ],
    });
  }

  #previousSeries({ snapshot: p, cell }: WhyPrevious): LineSeries[] {
    const l = this.#labels;
    const label = fill(l.previous, { cell: cell.toUpperCase(), length: p.lengths.at(-1) ?? 0 });
    const line = (name: string, color: string, values: readonly (number | null)[]): LineSeries => ({
      label: `${name} · ${label}`,
      color,
      points: values.map((y, i) => ({ x: p.lengths[i], y })),
      dash: [8, 3, 2, 3],
      width: 1.5,
      marker: 'none',
    });
    return [line(l.plain, PLAIN, p.plain), line(l.attention, ATTENTION, p.attention)];
  }

  destroy(): void {
    this.#chart.destroy();
  }
}
