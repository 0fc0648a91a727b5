// The Performance page's bar chart: one titled figure, its export menu, its legend and readout, a
// linear or log value axis (performance.ts draws the committed bench figures with it).
import type { Chart, Plugin } from 'chart.js';
import { ChartLegend } from '../charts/chart-legend';
import { ChartReadout } from '../charts/chart-readout';
import { logScaleOptions, toLog } from '../charts/log-axis';
import { chartPictures, DeferredChart, seriesColor } from '../charts/deferred-chart';
import { Figure } from '../figure';
import { restyleOnSchemeChange } from '../scheme';

export interface BarSeries {
  label: string;
  /** one colour, or one per bar */
  color: string | string[];
  values: (number | null)[];
}
export interface BarData {
  labels: string[];
  series: BarSeries[];
}

/** One titled bar chart; update(data) redraws it with new labels and series. */
export class BarChart extends Figure<BarData> {
  /** built off the mount task (deferred-chart.ts) */
  readonly #chart: DeferredChart<'bar', (number | null)[], string>;
  readonly #box: HTMLElement;
  readonly #legend: ChartLegend | null;
  /** a log value axis, drawn linear over log10 (log-axis.ts) */
  readonly #log: boolean;
  #data: BarData = { labels: [], series: [] };

  /** `name`: the export files' name; `t`: the section's strings (the export menu's labels) */
  constructor(host: HTMLElement, title: string, axis: string, options: { logarithmic?: boolean; legend?: boolean; name?: string; t?: (key: string) => string } = {}) {
    super({
      title,
      t: options.t,
      heading: { tag: 'figcaption' },
      fileName: options.name ?? 'performance',
      exports: {
        ...chartPictures(() => this.#chart.built()),
        table: () => ({
          rowLabels: this.#data.labels,
          colLabels: this.#data.series.map((s) => s.label || axis),
          values: this.#data.labels.flatMap((_, i) => this.#data.series.map((s) => s.values[i] ?? NaN)),
        }),
        json: () => ({ title, axis, ...this.#data }),
      },
    });
    this.#log = options.logarithmic ?? false;
    this.#box = document.createElement('figure');
    this.#box.className = 'perf-chart';
    const caption = this.heading!;
    if (this.menu) caption.append(this.menu);
    const wrap = document.createElement('div');
    wrap.style.position = 'relative';
    wrap.style.height = '260px';
    const canvas = document.createElement('canvas');
    canvas.setAttribute('role', 'img');
    canvas.setAttribute('aria-label', title);
    wrap.append(canvas);
    this.#box.append(caption, wrap);
    host.append(this.#box);
    this.#legend = (options.legend ?? true) ? new ChartLegend(wrap, canvas) : null;
    const readout = new ChartReadout({
      title: (items) => (items.length ? (this.#data.labels[items[0].index] ?? '') : ''),
      line: (item) => {
        const s = this.#data.series[item.datasetIndex];
        const v = s?.values[item.index];
        return s && v !== null && v !== undefined ? `${s.label || axis}: ${Number(v.toPrecision(4))}` : '';
      },
    });
    this.#chart = new DeferredChart<'bar', (number | null)[], string>(canvas, {
      type: 'bar',
      data: { labels: [], datasets: [] },
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        scales: {
          x: { type: 'category' },
          y: { type: 'linear', title: { display: true, text: axis } },
        },
        interaction: { mode: 'index', intersect: false },
      },
      plugins: [readout.plugin as Plugin<'bar'>],
    });
    readout.attach(canvas, () => this.#chart.ensure() as unknown as Chart | null);
    restyleOnSchemeChange(this);
  }

  /** The bars' and the legend's colours are resolved when the data comes: resolved again. */
  restyle(): void {
    if (this.#data) this.update(this.#data);
  }

  update(data: BarData): void {
    this.#data = data;
    this.#legend?.update(data.series.map((s) => ({ label: s.label, color: typeof s.color === 'string' ? s.color : (s.color[0] ?? ''), box: true })));
    // a log axis spans the powers of ten around the data; bars rise from its bottom
    const positive = data.series.flatMap((s) => s.values).filter((v): v is number => v !== null && v > 0);
    const lo = positive.length ? 10 ** Math.floor(toLog(Math.min(...positive))) : 1;
    const hi = positive.length ? 10 ** Math.ceil(toLog(Math.max(...positive))) : 10;
    this.#chart.change((chart) => {
      chart.data.labels = data.labels;
      if (this.#log) chart.options.scales = { ...chart.options.scales, y: { ...chart.options.scales?.y, ...logScaleOptions(lo, hi) } as never };
      chart.data.datasets = data.series.map((s) => {
        const color = typeof s.color === 'string' ? seriesColor(this.#chart.canvas, s.color) : s.color.map((c) => seriesColor(this.#chart.canvas, c));
        const values = this.#log ? s.values.map((v) => (v !== null && v > 0 ? toLog(v) : null)) : s.values;
        return { label: s.label, data: values, backgroundColor: color, borderColor: color, ...(this.#log ? { base: toLog(lo) } : {}) };
      });
    });
  }

  destroy(): void {
    this.#chart.destroy();
    this.#box.remove();
  }
}
