// A line chart drawn by Chart.js (loaded on demand, deferred-chart.ts): several series, dashed or
// solid, with optional point markers; a linear, log or category x axis; a fixed or automatic y range;
// axis titles; a legend below the plot (HTML, chart-legend.ts); under the pointer, a guide line at
// the nearest x and the values there (the project's readout, chart-readout.ts, on Chart.js's
// index-mode hover). Long series are thinned by Chart.js's decimation plugin (LTTB) on a linear x
// axis. The same update(data) API as before: sections barely change.
import type { ActiveElement, Chart, ChartConfiguration, ChartDataset, Plugin } from 'chart.js';
import type { ChartLegend, LegendEntry } from './chart-legend';
import { ChartReadout, ChartTable, type TableData } from './chart-readout';
import { figureTranslator, langOfNode } from '../figure-strings';
import { fill } from '../i18n';
import { restyleOnSchemeChange } from '../scheme';
import { chartOverlays, DeferredChart, seriesColor, type ChartOverlay } from './deferred-chart';

// A log x axis is drawn linear over log10 of the values (log-axis.ts, loaded with the charts that
// have one: most have none). These two are all the rest of the chart needs of it.
const toLog = (v: number): number => Math.log10(v);
const fromLog = (p: number): number => 10 ** p;

export interface LinePoint {
  readonly x: number;
  /** null or NaN: no value here (the line joins its neighbours) */
  readonly y: number | null;
}

export interface LineSeries {
  readonly label: string;
  readonly color: string;
  readonly points: readonly LinePoint[];
  /** dash pattern, e.g. [6, 4]; solid when absent */
  readonly dash?: readonly number[];
  readonly width?: number;
  readonly marker?: 'none' | 'circle' | 'triangle' | 'rect';
  readonly markerRadius?: number;
  /** false: the markers alone, no line between them (sparse measurements, where a line would
   *  claim a steady change between them) */
  readonly line?: boolean;
  /** 'y2': read against the right-hand axis (options.y2) */
  readonly axis?: 'y' | 'y2';
}

export interface LineChartData {
  readonly series: readonly LineSeries[];
  /** tick labels of a category x axis: point x = index into this list */
  readonly categories?: readonly string[];
}

export type XAxisOptions =
  | { kind: 'linear'; min?: number; max?: number; integerStep?: boolean; title?: string }
  /** `ticks`: the values to mark (default: Chart.js's) */
  | { kind: 'log'; min: number; max: number; ticks?: readonly number[]; title?: string }
  | { kind: 'category'; title?: string };

export interface YAxisOptions {
  min?: number;
  max?: number;
  title?: string;
  /** tick text (default: Chart.js's) */
  format?: (value: number) => string;
  /** readout text (default: 4 significant digits) */
  readout?: (value: number) => string;
}

/** The plot rectangle and its scales (value → pixel), handed to an overlay. */
export interface PlotFrame {
  left: number;
  top: number;
  right: number;
  bottom: number;
  x: (value: number) => number;
  y: (value: number) => number;
}

export interface LineChartOptions {
  /** the canvas's accessible name (and its "chart …" performance measure) */
  label: string;
  x: XAxisOptions;
  y: YAxisOptions;
  /** a right-hand axis, for series of another unit or range (their `axis: 'y2'`) */
  y2?: YAxisOptions;
  legend?: boolean;
  /** what the readout calls x (default: the x title) */
  xName?: string;
  /**
   * Drawn over the series, e.g. a marker line; returns what it drew (for the SVG export).
   */
  overlay?: (ctx: CanvasRenderingContext2D, frame: PlotFrame) => ChartOverlay[] | void;
}

/** points kept per series when decimating a long run (LTTB keeps its shape) */
const DECIMATED_POINTS = 400;
const GUIDE_INK = '#64748b';

/** what besides its points makes a series look as it does: a change rebuilds the datasets */
const STYLE_KEYS = ['label', 'yAxisID', 'borderColor', 'backgroundColor', 'borderWidth', 'borderDash', 'pointStyle', 'pointRadius', 'pointHoverRadius', 'showLine'] as const;

type LineConfig = ChartConfiguration<'line', { x: number; y: number | null }[], string>;

/** The canvas of a chart; `host` (positioned, with a height) sets its size, Chart.js follows it. */
export function chartCanvas(host: HTMLElement, label: string): HTMLCanvasElement {
  const canvas = document.createElement('canvas');
  canvas.setAttribute('role', 'img');
  canvas.setAttribute('aria-label', label);
  canvas.dataset.chartLabel = label;
  canvas.classList.add('lab-chart-canvas');
  // until Chart.js sizes it (when it comes into view) a canvas is 300 px wide: never wider than its box
  canvas.style.maxWidth = '100%';
  host.append(canvas);
  return canvas;
}

/** The data point an active element stands for (after decimation: the drawn one). */
function pointOf(chart: Chart, item: ActiveElement): { x: number; y: number | null } | undefined {
  return chart.data.datasets[item.datasetIndex]?.data[item.index] as { x: number; y: number | null } | undefined;
}

/** Formats x for the readout. */
function formatX(options: LineChartOptions, categories: readonly string[], v: number): string {
  if (options.x.kind === 'category') return categories[v] ?? String(v);
  return String(Number((options.x.kind === 'log' ? fromLog(v) : v).toPrecision(6)));
}

function yScale(y: YAxisOptions) {
  return {
    type: 'linear' as const,
    min: y.min,
    max: y.max,
    title: { display: Boolean(y.title), text: y.title ?? '' },
    ticks: y.format ? { callback: (v: number | string) => y.format!(Number(v)) } : {},
  };
}

export class LineChart {
  readonly canvas: HTMLCanvasElement;
  readonly #options: LineChartOptions;
  readonly #chart: DeferredChart<'line', { x: number; y: number | null }[], string>;
  /** the legend, loaded with its chart only where there is one (most charts have none) */
  readonly #legend: Promise<ChartLegend> | null;
  #legendEntries: readonly LegendEntry[] = [];
  #categories: readonly string[] = [];
  readonly #readout: ChartReadout;
  readonly #table: ChartTable;
  #series: readonly LineSeries[] = [];
  /** the last data drawn: a change of scheme draws it again in the other colours */
  #data: LineChartData | null = null;

  /** `host` sets the chart's size; the legend (if any) goes right after it. */
  constructor(host: HTMLElement, options: LineChartOptions) {
    this.#options = options;
    this.#readout = new ChartReadout({
      title: (items, chart) => {
        const p = items.length ? pointOf(chart, items[0]) : undefined;
        return p ? `${options.xName ?? options.x.title ?? 'x'} ${formatX(options, this.#categories, p.x)}` : '';
      },
      line: (item, chart) => {
        const y = pointOf(chart, item)?.y;
        const label = chart.data.datasets[item.datasetIndex]?.label ?? '';
        return y === null || y === undefined || !Number.isFinite(y) ? '' : `${label}: ${options.y.readout?.(y) ?? String(Number(y.toPrecision(4)))}`;
      },
    });
    this.canvas = chartCanvas(host, options.label);
    const x = options.x;
    // the log axis's ticks and labels: built into the configuration before the chart is built
    const logAxis =
      x.kind === 'log'
        ? import('./log-axis').then(({ logScaleOptions }) =>
            this.#chart.change((target) => Object.assign(target.options.scales!.x!, logScaleOptions(x.min, x.max, x.ticks))),
          )
        : undefined;
    this.#chart = new DeferredChart(this.canvas, this.#config(), logAxis);
    this.#readout.attach(this.canvas, () => this.#chart.ensure() as unknown as Chart | null);
    this.#table = new ChartTable(host, () => this.#tableData());
    this.#legend = options.legend ? import('./chart-legend').then((m) => new m.ChartLegend(host, this.canvas)) : null;
    restyleOnSchemeChange(this);
  }

  /** The series' and the legend's colours are resolved when the data comes: resolved again. */
  restyle(): void {
    if (this.#data) this.update(this.#data);
  }

  #config(): LineConfig {
    const o = this.#options;
    const x = o.x;
    const xTitle = { display: Boolean(x.title), text: x.title ?? '' };
    const xScale: Record<string, unknown> =
      x.kind === 'category'
        ? { type: 'category', title: xTitle }
        : x.kind === 'log'
          ? { type: 'linear', min: toLog(x.min), max: toLog(x.max), title: xTitle } // the rest: the constructor
          : { type: 'linear', min: x.min, max: x.max, title: xTitle, ticks: { precision: x.integerStep ? 0 : undefined } };
    const plugins: Plugin<'line'>[] = [
      this.#readout.plugin as Plugin<'line'>,
      {
        id: 'guideAndOverlay',
        afterDatasetsDraw: (chart) => this.#afterDraw(chart as unknown as Chart),
      },
    ];
    return {
      type: 'line',
      data: { labels: [], datasets: [] },
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        parsing: false,
        normalized: true,
        spanGaps: true,
        interaction: { mode: 'index', intersect: false, axis: 'x' },
        scales: {
          x: xScale as never,
          y: yScale(o.y),
          // its grid would cross the left axis's: only its ticks and title, on the right
          ...(o.y2 ? { y2: { ...yScale(o.y2), position: 'right', grid: { drawOnChartArea: false } } } : {}),
        },
        plugins: {
          decimation: { enabled: x.kind === 'linear', algorithm: 'lttb', samples: DECIMATED_POINTS, threshold: DECIMATED_POINTS * 2 },
        },
      },
      plugins,
    };
  }

  /** The guide line at the hovered x, then the section's overlay. */
  #afterDraw(chart: Chart): void {
    const { ctx, chartArea: a } = chart;
    const overlays: ChartOverlay[] = [];
    const active = chart.getActiveElements();
    if (active.length) {
      const px = Math.round(active[0].element.x) + 0.5;
      ctx.save();
      ctx.strokeStyle = GUIDE_INK;
      ctx.lineWidth = 1;
      ctx.beginPath();
      ctx.moveTo(px, a.top);
      ctx.lineTo(px, a.bottom);
      ctx.stroke();
      ctx.restore();
    }
    if (this.#options.overlay) {
      const frame: PlotFrame = {
        left: a.left,
        top: a.top,
        right: a.right,
        bottom: a.bottom,
        x: (v) => chart.scales.x.getPixelForValue(this.#options.x.kind === 'log' ? toLog(v) : v),
        y: (v) => chart.scales.y.getPixelForValue(v),
      };
      overlays.push(...(this.#options.overlay(ctx, frame) ?? []));
    }
    chartOverlays.set(chart, overlays);
  }

  /** A log x axis's new range and ticks (its data's x values changed: §1's lengths follow a setting). */
  setLogRange(min: number, max: number, ticks?: readonly number[]): void {
    const x = this.#options.x;
    if (x.kind !== 'log') return;
    Object.assign(x, { min, max, ticks });
    void import('./log-axis').then(({ logScaleOptions }) =>
      this.#chart.change((target) => Object.assign(target.options.scales!.x!, logScaleOptions(min, max, ticks))),
    );
  }

  update(data: LineChartData): void {
    this.#data = data;
    this.#categories = data.categories ?? [];
    // a log x axis is drawn linear over log10(x) (log-axis.ts)
    const log = this.#options.x.kind === 'log';
    const datasets: ChartDataset<'line', { x: number; y: number | null }[]>[] = data.series.map((s) => ({
      label: s.label,
      data: s.points.map((p) => ({ x: log ? toLog(p.x) : p.x, y: p.y === null || Number.isNaN(p.y) ? null : p.y })),
      borderColor: seriesColor(this.canvas, s.color),
      backgroundColor: seriesColor(this.canvas, s.color),
      borderWidth: s.width ?? 1.5,
      borderDash: s.dash ? [...s.dash] : [],
      showLine: s.line !== false,
      pointStyle: s.marker === 'triangle' || s.marker === 'rect' ? s.marker : 'circle',
      pointRadius: s.marker && s.marker !== 'none' ? (s.markerRadius ?? 3) : 0,
      pointHoverRadius: s.marker && s.marker !== 'none' ? (s.markerRadius ?? 3) + 2 : 3,
      indexAxis: 'x',
      yAxisID: s.axis === 'y2' && this.#options.y2 ? 'y2' : 'y',
    }));
    this.#chart.change((chart) => {
      chart.data.labels = [...this.#categories];
      // Same series, new points (a training curve at every frame): the dataset objects stay, so
      // Chart.js keeps their controllers and resolved options instead of rebuilding them.
      const current = chart.data.datasets;
      const sameStyle =
        current.length === datasets.length &&
        current.every((d, i) => STYLE_KEYS.every((k) => JSON.stringify(d[k]) === JSON.stringify(datasets[i][k])));
      if (sameStyle) current.forEach((d, i) => (d.data = datasets[i].data));
      else chart.data.datasets = datasets;
    });
    this.#series = data.series;
    this.#table.refresh();
    // the name says what the chart holds, not only its title
    const t = figureTranslator(undefined, langOfNode(this.canvas));
    const o = this.#options;
    this.canvas.setAttribute(
      'aria-label',
      fill(t('chart.aria.line'), { label: o.label, series: data.series.map((s) => s.label).join(t('chart.aria.sep')), x: o.x.title ?? o.xName ?? 'x', y: [o.y.title ?? 'y', o.y2?.title].filter(Boolean).join(t('chart.aria.sep')) }),
    );
    if (this.#legend) {
      this.#legendEntries = data.series.map((s) => ({ label: s.label, color: s.color, dash: s.dash?.length ? s.dash : undefined, marker: s.marker, line: s.line }));
      void this.#legend.then((legend) => legend.update(this.#legendEntries));
    }
  }

  /** The series as a table (chart-table-build.ts lays it out). */
  #tableData(): TableData {
    const o = this.#options;
    return {
      caption: o.label,
      head: [o.x.title ?? o.xName ?? 'x', ...this.#series.map((s) => s.label)],
      series: this.#series.map((s) => s.points),
      x: (x) => (o.x.kind === 'category' ? (this.#categories[x] ?? String(x)) : String(x)),
      y: (y) => o.y.readout?.(y) ?? String(Number(y.toPrecision(4))),
    };
  }

  /** Redraws with the same data (an overlay's own state changed). */
  redraw(): void {
    this.#chart.redraw();
  }

  /** The chart once built, now if need be (null once destroyed): for exports (chartPictures). */
  built(): Promise<Chart | null> {
    return this.#chart.built() as Promise<unknown> as Promise<Chart | null>;
  }

  destroy(): void {
    this.#chart.destroy();
    this.#table.element.remove();
    void this.#legend?.then((legend) => legend.remove());
  }
}
