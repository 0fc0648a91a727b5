// Horizontal bars drawn by Chart.js (loaded on demand, deferred-chart.ts): one bar per category (its
// label on the left, in any script, shortened with … when too wide), a value axis below, and each
// bar's value as text at its end (a small plugin; recorded for the SVG export). Hovering a bar shows
// its full label and value (the project's readout, chart-readout.ts). The same update(bars) API as before.
import type { Chart, ChartConfiguration, Plugin } from 'chart.js';
import { ChartReadout, ChartTable } from './chart-readout';
import { figureTranslator, langOfNode } from '../figure-strings';
import { fill } from '../i18n';
import { canvasColor, chartOverlays, DeferredChart, pictureExports, seriesColor, type ChartOverlay } from './deferred-chart';
import { chartCanvas } from './line-chart';

export interface Bar {
  readonly label: string;
  readonly value: number;
  readonly color: string;
}

export interface BarChartOptions {
  /** the canvas's accessible name (and its "chart …" performance measure) */
  label: string;
  /** value range (default 0 … 1, probabilities) */
  min?: number;
  max?: number;
  /** a bar's value as text (default: 3 decimals) */
  format?: (value: number) => string;
}

/** category labels: at most this many characters on the axis (the readout shows them whole) */
const LABEL_CHARS = 14;
const VALUE_FONT = "11px system-ui, -apple-system, 'Segoe UI', 'Noto Sans CJK SC', sans-serif";

/** Text colour that reads on a '#rrggbb' fill: dark on light fills, white on dark ones. */
export function textOn(fill: string): string {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(fill);
  if (!m) return '#0f172a';
  const [r, g, b] = m.slice(1).map((h) => parseInt(h, 16) / 255);
  // Rec. 709 luma of the (gamma-encoded) colour: enough to pick black or white text
  return 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.55 ? '#0f172a' : '#ffffff';
}

const shorten = (label: string): string => {
  const chars = [...label];
  return chars.length > LABEL_CHARS ? `${chars.slice(0, LABEL_CHARS - 1).join('')}…` : label;
};

export class BarChart {
  readonly canvas: HTMLCanvasElement;
  readonly #options: BarChartOptions;
  readonly #chart: DeferredChart<'bar', number[], string>;
  #bars: readonly Bar[] = [];
  readonly #table: ChartTable;
  readonly #readout = new ChartReadout({
    title: (items) => (items.length ? (this.#bars[items[0].index]?.label ?? '') : ''),
    line: (item) => {
      const bar = this.#bars[item.index];
      return bar ? this.#format(bar.value) : '';
    },
  });

  /** `host` sets the chart's size. */
  constructor(host: HTMLElement, options: BarChartOptions) {
    this.#options = options;
    this.canvas = chartCanvas(host, options.label);
    this.#chart = new DeferredChart(this.canvas, this.#config());
    this.#readout.attach(this.canvas, () => this.#chart.ensure() as unknown as Chart | null);
    // no column headers given: chart-table-build.ts names the two columns
    this.#table = new ChartTable(host, () => ({ caption: options.label, head: [], rows: this.#bars.map((b) => [b.label, this.#format(b.value)]) }));
  }

  #config(): ChartConfiguration<'bar', number[], string> {
    const o = this.#options;
    return {
      type: 'bar',
      data: { labels: [], datasets: [] },
      options: {
        indexAxis: 'y',
        animation: false,
        interaction: { mode: 'index', intersect: false, axis: 'y' },
        responsive: true,
        maintainAspectRatio: false,
        layout: { padding: { right: 44 } },
        scales: {
          x: { type: 'linear', min: o.min ?? 0, max: o.max ?? 1, grid: { color: (c) => canvasColor(c.chart.canvas, '--lab-line', '#e2e8f0') } },
          y: { type: 'category', grid: { display: false }, ticks: { callback: (_v, i) => shorten(this.#bars[i]?.label ?? '') } },
        },
        plugins: {
          legend: { display: false },
        },
      },
      plugins: [
        { id: 'barValues', afterDatasetsDraw: (chart) => this.#drawValues(chart as unknown as Chart) },
        this.#readout.plugin as Plugin<'bar'>,
      ],
    };
  }

  #format(v: number): string {
    return this.#options.format?.(v) ?? v.toFixed(3);
  }

  /** Each bar's value right of it, or inside its end when the bar reaches the edge. */
  #drawValues(chart: Chart): void {
    const ctx = chart.ctx;
    const meta = chart.getDatasetMeta(0);
    const overlays: ChartOverlay[] = [];
    ctx.save();
    ctx.font = VALUE_FONT;
    ctx.textBaseline = 'middle';
    meta.data.forEach((el, i) => {
      const bar = this.#bars[i];
      if (!bar) return;
      const { x, y } = el.getProps(['x', 'y'], true) as unknown as { x: number; y: number };
      const text = this.#format(bar.value);
      const w = ctx.measureText(text).width;
      const outside = x + 4 + w <= chart.width - 2;
      // recorded in the light colours (the SVG is drawn on white), drawn in the page's
      const item: ChartOverlay = outside
        ? { kind: 'text', x: x + 4, y, text, color: '#475569', align: 'left' }
        : { kind: 'text', x: x - 4, y, text, color: textOn(bar.color), align: 'right' };
      ctx.fillStyle = outside ? canvasColor(chart.canvas, '--lab-muted', '#475569') : textOn(seriesColor(chart.canvas, bar.color));
      ctx.textAlign = item.align === 'left' ? 'left' : 'right';
      ctx.fillText(text, item.x, y);
      overlays.push(item);
    });
    ctx.restore();
    chartOverlays.set(chart, overlays);
  }

  /** The bars, top to bottom. */
  update(bars: readonly Bar[]): void {
    for (const b of bars) {
      if (!Number.isFinite(b.value)) throw new Error(`BarChart: the value of “${b.label}” is ${b.value}, not a number`);
    }
    this.#bars = bars;
    this.#table.refresh();
    const { min = 0, max = 1 } = this.#options;
    // the name says what the chart holds, not only its title
    const t = figureTranslator(undefined, langOfNode(this.canvas));
    const list = bars.map((b) => fill(t('chart.aria.item'), { label: b.label, value: this.#format(b.value) })).join(t('chart.aria.sep'));
    this.canvas.setAttribute('aria-label', bars.length ? fill(t('chart.aria.bar'), { label: this.#options.label, count: bars.length, bars: list }) : this.#options.label);
    this.#chart.change((chart) => {
      chart.data.labels = bars.map((b) => b.label);
      chart.data.datasets = [
        {
          label: this.#options.label,
          data: bars.map((b) => Math.min(max, Math.max(min, b.value))),
          backgroundColor: bars.map((b) => seriesColor(this.canvas, b.color)),
          maxBarThickness: 26,
          categoryPercentage: 0.8,
          barPercentage: 0.9,
        },
      ];
    });
  }

  /** PNG and SVG export handlers: the chart under `title`. */
  pictures(name: string, title: string = this.#options.label): { png: () => Promise<void>; svg: () => Promise<void> } {
    return pictureExports(this.#chart, name, () => title);
  }

  destroy(): void {
    this.#chart.destroy();
    this.#table.element.remove();
  }
}
