// One labelled heatmap (Chart.js + chartjs-chart-matrix) with a colour legend, value labels in the
// cells, a tooltip on hover and on keyboard focus (arrow keys move between cells), token labels on
// both axes (any script; repeated tokens stay separate cells), PNG/CSV/JSON export buttons, and a
// hidden <output> holding the last values as JSON (for tests and for copying). Signed data can use
// a diverging ramp centred on 0. Wide matrices scroll inside their box instead of the page.
import {
  CategoryScale,
  Chart,
  Tooltip,
  type ChartConfiguration,
  type Plugin,
  type ScriptableContext,
} from 'chart.js';
import { MatrixController, MatrixElement } from 'chartjs-chart-matrix';
import { DeferredChart } from './deferred-chart';
import { downloadCanvasPng, downloadCsv, downloadJson, exportButtons, type Translate } from './export';
import { SHELL_STRINGS, translator } from './i18n';
import heatmapCss from './heatmap.css?inline';

Chart.register(MatrixController, MatrixElement, CategoryScale, Tooltip);

/** ColorBrewer "Blues": one hue, light → dark, luminance strictly decreasing (reads in greyscale). */
const RAMP: readonly [number, number, number][] = [
  [247, 251, 255],
  [222, 235, 247],
  [198, 219, 239],
  [158, 202, 225],
  [107, 174, 214],
  [66, 146, 198],
  [33, 113, 181],
  [8, 81, 156],
  [8, 48, 107],
];

/**
 * ColorBrewer "PuOr" (diverging, colour-blind safe): orange for negative, purple for positive, near
 * white at 0; lightness falls with |value| on both sides, so magnitude still reads in greyscale.
 */
const DIVERGING_RAMP: readonly [number, number, number][] = [
  [179, 88, 6],
  [224, 130, 20],
  [253, 184, 99],
  [254, 224, 182],
  [247, 247, 247],
  [216, 218, 235],
  [178, 171, 210],
  [128, 115, 172],
  [84, 39, 136],
];

function interpolate(ramp: readonly (readonly [number, number, number])[], t: number): string {
  const x = Math.min(1, Math.max(0, Number.isFinite(t) ? t : 0)) * (ramp.length - 1);
  const i = Math.min(ramp.length - 2, Math.floor(x));
  const f = x - i;
  const [a, b] = [ramp[i], ramp[i + 1]];
  const c = a.map((v, k) => Math.round(v + (b[k] - v) * f));
  return `rgb(${c[0]}, ${c[1]}, ${c[2]})`;
}

/** Colour of t in [0, 1] on the sequential ramp (light → dark). */
export function rampColor(t: number): string {
  return interpolate(RAMP, t);
}

/** Colour of t in [0, 1] on the diverging ramp (0.5 is the centre, value 0). */
export function divergingColor(t: number): string {
  return interpolate(DIVERGING_RAMP, t);
}

const gradientCss = (color: (t: number) => string, n: number) =>
  `linear-gradient(to right, ${Array.from({ length: n }, (_, i) => color(i / (n - 1))).join(', ')})`;
const RAMP_CSS = gradientCss(rampColor, RAMP.length);
const DIVERGING_CSS = gradientCss(divergingColor, DIVERGING_RAMP.length);

/** Axis tick text: long tokens are shortened (the tooltip and focus text show them whole). */
export function tickLabel(label: string, max = 10): string {
  const chars = [...label];
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : label;
}

const DEFAULT_T: Translate = translator('en', SHELL_STRINGS);

/** Documents and shadow roots that already hold the heatmap CSS. */
const styledRoots = new WeakSet<Node>();

/** Adds the heatmap CSS to the element's document or shadow root, once (no-op while detached). */
function ensureStyles(element: Element): void {
  const root = element.getRootNode();
  if (styledRoots.has(root)) return;
  const style = document.createElement('style');
  style.dataset.heatmapCss = '';
  style.textContent = heatmapCss;
  if (root instanceof ShadowRoot) root.prepend(style);
  else if (root instanceof Document) root.head.append(style);
  else return; // not attached yet: update() tries again
  styledRoots.add(root);
}

export function formatValue(v: number, digits = 2): string {
  if (!Number.isFinite(v)) return String(v);
  if (Math.abs(v) >= 1000) return v.toExponential(1);
  const s = v.toFixed(digits);
  return s === `-${(0).toFixed(digits)}` ? (0).toFixed(digits) : s; // no "-0.00"
}

export interface HeatmapData {
  rows: number;
  cols: number;
  /** row-major, length rows·cols */
  values: ArrayLike<number>;
  rowLabels: readonly string[];
  colLabels: readonly string[];
}

export interface HeatmapOptions {
  /** element id of the figure (e.g. "weights"); also the export file name unless exportName is set */
  id: string;
  title: string;
  /** a fixed colour range (e.g. [0, 1] for probabilities); otherwise the data's min..max */
  fixedRange?: readonly [number, number];
  /**
   * Signed data: a diverging ramp centred on 0, range ±max|value| (or ±max|fixedRange|), so the
   * colour of 0 is the same in every update.
   */
  diverging?: boolean;
  /** axis titles (e.g. "keys", "queries"); none by default */
  xTitle?: string;
  yTitle?: string;
  /** PNG/CSV/JSON buttons (default true) */
  exportable?: boolean;
  /** file name of exports (default: id) */
  exportName?: string;
  /** labels of the export buttons (default: the shell's English strings) */
  t?: Translate;
  /** decimals in the cells (default 2; the tooltip shows 4) */
  digits?: number;
}

/** x and y are column / row indices as strings, so repeated tokens stay separate categories. */
interface Cell {
  x: string;
  y: string;
  v: number;
}

const indexLabels = (n: number) => Array.from({ length: n }, (_, i) => String(i));

type MatrixCtx = ScriptableContext<'matrix'>;

export class Heatmap {
  readonly element: HTMLElement;
  readonly #options: HeatmapOptions;
  readonly #title: HTMLElement;
  readonly #canvas: HTMLCanvasElement;
  readonly #box: HTMLElement;
  readonly #inner: HTMLElement;
  readonly #legendMin: HTMLElement;
  readonly #legendMax: HTMLElement;
  readonly #focusText: HTMLElement;
  readonly #output: HTMLOutputElement;
  /** built on the first update, drawn off the mount task (deferred-chart.ts) */
  #chart: DeferredChart<'matrix', Cell[], string> | null = null;
  #data: HeatmapData | null = null;
  #min = 0;
  #max = 1;
  #focusIndex = 0;

  constructor(host: HTMLElement, options: HeatmapOptions) {
    this.#options = options;
    const fig = document.createElement('figure');
    fig.className = 'heatmap';
    fig.id = options.id;

    const cap = document.createElement('figcaption');
    this.#title = document.createElement('h3');
    this.#title.textContent = options.title;
    cap.append(this.#title);
    if (options.exportable !== false) {
      const t = options.t ?? DEFAULT_T;
      cap.append(
        exportButtons(
          t,
          {
            png: () => {
              this.#chart?.ensure(); // drawn now if it was still waiting to be built
              downloadCanvasPng(this.#fileName(), this.#canvas);
            },
            csv: () => this.#data && downloadCsv(this.#fileName(), this.#data.rowLabels, this.#data.colLabels, this.#data.values),
            json: () => this.#data && downloadJson(this.#fileName(), this.exportData()),
          },
          options.title,
        ),
      );
    }

    // box: the visible frame (scrolls sideways on narrow screens); inner: sized to the matrix
    this.#box = document.createElement('div');
    this.#box.className = 'chart-box';
    this.#inner = document.createElement('div');
    this.#inner.className = 'chart-inner';
    this.#canvas = document.createElement('canvas');
    this.#canvas.tabIndex = 0;
    this.#canvas.setAttribute('role', 'img');
    const focusId = `${options.id}-focus`;
    this.#canvas.setAttribute('aria-describedby', focusId);
    this.#inner.append(this.#canvas);
    this.#box.append(this.#inner);

    const legend = document.createElement('div');
    legend.className = 'legend';
    this.#legendMin = document.createElement('span');
    const bar = document.createElement('span');
    bar.className = 'legend-bar';
    bar.style.backgroundImage = options.diverging ? DIVERGING_CSS : RAMP_CSS;
    bar.setAttribute('aria-hidden', 'true');
    this.#legendMax = document.createElement('span');
    legend.append(this.#legendMin, bar, this.#legendMax);

    this.#focusText = document.createElement('p');
    this.#focusText.className = 'focus-text';
    this.#focusText.id = focusId;
    this.#focusText.setAttribute('aria-live', 'polite');

    this.#output = document.createElement('output');
    this.#output.className = 'heatmap-data';
    this.#output.hidden = true;

    fig.append(cap, this.#box, legend, this.#focusText, this.#output);
    host.append(fig);
    this.element = fig;
    ensureStyles(fig);

    this.#canvas.addEventListener('focus', () => this.#showFocus());
    this.#canvas.addEventListener('blur', () => this.#clearFocus());
    this.#canvas.addEventListener('keydown', (e) => this.#onKey(e));
  }

  set title(text: string) {
    this.#title.textContent = text;
  }

  /** The figure's current numbers, as the JSON export writes them. */
  exportData(): { title: string; rows: number; cols: number; rowLabels: string[]; colLabels: string[]; values: number[] } | null {
    const d = this.#data;
    if (!d) return null;
    return {
      title: this.#title.textContent ?? '',
      rows: d.rows,
      cols: d.cols,
      rowLabels: [...d.rowLabels],
      colLabels: [...d.colLabels],
      values: Array.from(d.values),
    };
  }

  #fileName(): string {
    return this.#options.exportName ?? this.#options.id;
  }

  update(data: HeatmapData): void {
    const { rows, cols, values, rowLabels, colLabels } = data;
    if (values.length !== rows * cols) throw new Error(`heatmap: expected ${rows * cols} values, got ${values.length}`);
    ensureStyles(this.element);

    if (rowLabels.length !== rows || colLabels.length !== cols) {
      throw new Error(`heatmap: ${rows}×${cols} values but ${rowLabels.length} row and ${colLabels.length} column labels`);
    }
    this.#data = { ...data, values: Array.from(values), rowLabels: [...rowLabels], colLabels: [...colLabels] };

    let [min, max] = this.#options.fixedRange ?? [Infinity, -Infinity];
    if (!this.#options.fixedRange) {
      for (let i = 0; i < values.length; i++) {
        if (!Number.isFinite(values[i])) continue;
        min = Math.min(min, values[i]);
        max = Math.max(max, values[i]);
      }
      if (min > max) [min, max] = [0, 1]; // no finite values
    }
    if (this.#options.diverging) {
      const m = Math.max(Math.abs(min), Math.abs(max)) || 1;
      [min, max] = [-m, m];
    }
    this.#min = min;
    this.#max = max;
    this.#legendMin.textContent = formatValue(min);
    this.#legendMax.textContent = formatValue(max);
    this.#legendMin.title = this.#options.diverging ? 'most negative (orange)' : 'lightest colour';
    this.#legendMax.title = this.#options.diverging ? 'most positive (purple)' : 'darkest colour';

    const cells: Cell[] = [];
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) cells.push({ x: String(c), y: String(r), v: values[r * cols + c] });
    }
    this.#box.style.height = `${Math.min(380, Math.max(110, rows * 38 + 42))}px`;
    // at least ~30 px per column (plus the row labels): a wide matrix scrolls, it never squashes
    const longestRow = Math.max(1, ...rowLabels.map((l) => [...tickLabel(l)].length));
    this.#inner.style.minWidth = `${cols * 30 + longestRow * 9 + 24}px`;
    this.#canvas.setAttribute(
      'aria-label',
      `${this.#title.textContent}: ${rows} by ${cols} heatmap, values from ${formatValue(min)} to ${formatValue(max)}. Focus and use the arrow keys to read cells.`,
    );
    this.#output.dataset.shape = `${rows},${cols}`;
    this.#output.value = JSON.stringify(Array.from(values));
    this.#focusIndex = Math.min(this.#focusIndex, cells.length - 1);

    if (!this.#chart) {
      this.#chart = new DeferredChart(this.#canvas, this.#config(cells, rows, cols));
    } else {
      this.#chart.change((chart) => {
        chart.data.datasets[0].data = cells;
        const scales = chart.options.scales as Record<string, { labels?: string[] }>;
        scales.x.labels = indexLabels(cols);
        scales.y.labels = indexLabels(rows);
      });
    }
    if (document.activeElement === this.#canvas) this.#showFocus();
  }

  destroy(): void {
    this.#chart?.destroy();
    this.#chart = null;
    this.element.remove();
  }

  #t(v: number): number {
    return this.#max > this.#min ? (v - this.#min) / (this.#max - this.#min) : 0.5;
  }

  #color(v: number): string {
    return this.#options.diverging ? divergingColor(this.#t(v)) : rampColor(this.#t(v));
  }

  /** Dark text on light cells, light text on dark ones. */
  #textColor(v: number): string {
    const t = this.#t(v);
    const dark = this.#options.diverging ? Math.abs(t - 0.5) > 0.3 : t > 0.5;
    return dark ? '#ffffff' : '#0f172a';
  }

  #label(axis: 'x' | 'y', index: number): string {
    const labels = axis === 'x' ? this.#data?.colLabels : this.#data?.rowLabels;
    return labels?.[index] ?? '';
  }

  #config(cells: Cell[], rows: number, cols: number): ChartConfiguration<'matrix', Cell[], string> {
    const tickFont = { size: 12, family: "system-ui, -apple-system, 'Segoe UI', 'Noto Sans CJK SC', 'PingFang SC', 'Microsoft YaHei', sans-serif" };
    const axisTitle = (text: string | undefined) => ({ display: Boolean(text), text: text ?? '', color: '#475569', font: { size: 11 } });
    const cellSize = (ctx: MatrixCtx, axis: 'width' | 'height') => {
      const area = ctx.chart.chartArea;
      const n = axis === 'width' ? (this.#data?.cols ?? 1) : (this.#data?.rows ?? 1);
      return area ? Math.max(1, area[axis] / n - 2) : 0;
    };
    return {
      type: 'matrix',
      data: {
        datasets: [
          {
            label: this.#options.title,
            data: cells,
            backgroundColor: (ctx: MatrixCtx) => this.#color((ctx.raw as Cell | undefined)?.v ?? 0),
            borderColor: 'rgba(0, 0, 0, 0)',
            borderWidth: 0,
            hoverBorderColor: '#c2410c',
            hoverBorderWidth: 3,
            width: (ctx: MatrixCtx) => cellSize(ctx, 'width'),
            height: (ctx: MatrixCtx) => cellSize(ctx, 'height'),
          },
        ],
      },
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        layout: { padding: 2 },
        plugins: {
          legend: { display: false },
          tooltip: {
            displayColors: false,
            callbacks: {
              title: (items) => {
                const cell = items[0]?.raw as Cell | undefined;
                return cell ? `${this.#label('y', Number(cell.y))} · ${this.#label('x', Number(cell.x))}` : '';
              },
              label: (item) => formatValue((item.raw as Cell).v, 4),
            },
          },
        },
        scales: {
          x: {
            type: 'category',
            labels: indexLabels(cols),
            offset: true,
            position: 'top',
            grid: { display: false },
            border: { display: false },
            title: axisTitle(this.#options.xTitle),
            ticks: {
              color: '#334155',
              font: tickFont,
              autoSkip: false,
              maxRotation: 60,
              callback: (_value, index) => tickLabel(this.#label('x', index)),
            },
          },
          y: {
            type: 'category',
            labels: indexLabels(rows),
            offset: true,
            reverse: false, // q1 on top, like the matrix it shows (the matrix plugin defaults to true)
            grid: { display: false },
            border: { display: false },
            title: axisTitle(this.#options.yTitle),
            ticks: {
              color: '#334155',
              font: tickFont,
              autoSkip: false,
              callback: (_value, index) => tickLabel(this.#label('y', index)),
            },
          },
        },
      },
      plugins: [this.#valueLabels()],
    };
  }

  /** Draws each cell's value in it, dark on light cells and light on dark ones, when it fits. */
  #valueLabels(): Plugin<'matrix'> {
    return {
      id: 'valueLabels',
      afterDatasetsDraw: (chart) => {
        const meta = chart.getDatasetMeta(0);
        const ctx = chart.ctx;
        ctx.save();
        ctx.textAlign = 'center';
        ctx.textBaseline = 'middle';
        for (const el of meta.data) {
          const { width, height } = el.getProps(['width', 'height'], true) as { width: number; height: number };
          const cell = (el as unknown as { $context?: { raw?: Cell } }).$context?.raw;
          if (!cell) continue;
          const text = formatValue(cell.v, this.#options.digits ?? 2);
          const size = Math.min(13, height * 0.42, (width / Math.max(3, text.length)) * 1.7);
          if (size < 8) continue;
          const { x, y } = el.tooltipPosition(true);
          if (x === null || y === null) continue;
          ctx.font = `${Math.round(size)}px system-ui, sans-serif`;
          ctx.fillStyle = this.#textColor(cell.v);
          ctx.fillText(text, x, y);
        }
        ctx.restore();
      },
    };
  }

  #onKey(e: KeyboardEvent): void {
    const d = this.#data;
    if (!d) return;
    let r = Math.floor(this.#focusIndex / d.cols);
    let c = this.#focusIndex % d.cols;
    switch (e.key) {
      case 'ArrowLeft':
        c = Math.max(0, c - 1);
        break;
      case 'ArrowRight':
        c = Math.min(d.cols - 1, c + 1);
        break;
      case 'ArrowUp':
        r = Math.max(0, r - 1);
        break;
      case 'ArrowDown':
        r = Math.min(d.rows - 1, r + 1);
        break;
      case 'Home':
        c = 0;
        break;
      case 'End':
        c = d.cols - 1;
        break;
      case 'Escape':
        this.#clearFocus();
        return;
      default:
        return;
    }
    e.preventDefault();
    this.#focusIndex = r * d.cols + c;
    this.#showFocus();
  }

  #showFocus(): void {
    const chart = this.#chart?.ensure(); // keyboard focus: the cells must exist now
    const d = this.#data;
    if (!chart || !d || d.values.length === 0) return;
    const index = this.#focusIndex;
    const el = chart.getDatasetMeta(0).data[index];
    if (!el) return;
    const active = [{ datasetIndex: 0, index }];
    chart.setActiveElements(active);
    chart.tooltip?.setActiveElements(active, el.tooltipPosition(true));
    chart.update('none');
    const r = Math.floor(index / d.cols);
    const c = index % d.cols;
    this.#focusText.textContent = `${d.rowLabels[r]} · ${d.colLabels[c]}: ${formatValue(d.values[index], 4)}`;
  }

  #clearFocus(): void {
    const chart = this.#chart?.chart;
    if (!chart) return;
    chart.setActiveElements([]);
    chart.tooltip?.setActiveElements([], { x: 0, y: 0 });
    chart.update('none');
    this.#focusText.textContent = '';
  }
}
