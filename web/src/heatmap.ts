// One labelled heatmap (Chart.js + chartjs-chart-matrix) with a colour legend, value labels in the
// cells, a tooltip on hover and on keyboard focus (arrow keys move between cells), and a hidden
// <output> holding the last values as JSON (for tests and for copying).
import {
  CategoryScale,
  Chart,
  Tooltip,
  type ChartConfiguration,
  type Plugin,
  type ScriptableContext,
} from 'chart.js';
import { MatrixController, MatrixElement } from 'chartjs-chart-matrix';

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

export function rampColor(t: number): string {
  const x = Math.min(1, Math.max(0, Number.isFinite(t) ? t : 0)) * (RAMP.length - 1);
  const i = Math.min(RAMP.length - 2, Math.floor(x));
  const f = x - i;
  const [a, b] = [RAMP[i], RAMP[i + 1]];
  const c = a.map((v, k) => Math.round(v + (b[k] - v) * f));
  return `rgb(${c[0]}, ${c[1]}, ${c[2]})`;
}

const RAMP_CSS = `linear-gradient(to right, ${RAMP.map((_, i) => rampColor(i / (RAMP.length - 1))).join(', ')})`;

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
  /** element id of the figure (e.g. "weights") */
  id: string;
  title: string;
  /** a fixed colour range (e.g. [0, 1] for probabilities); otherwise the data's min..max */
  fixedRange?: readonly [number, number];
}

interface Cell {
  x: string;
  y: string;
  v: number;
}

type MatrixCtx = ScriptableContext<'matrix'>;

export class Heatmap {
  readonly element: HTMLElement;
  readonly #options: HeatmapOptions;
  readonly #title: HTMLElement;
  readonly #canvas: HTMLCanvasElement;
  readonly #box: HTMLElement;
  readonly #legendMin: HTMLElement;
  readonly #legendMax: HTMLElement;
  readonly #focusText: HTMLElement;
  readonly #output: HTMLOutputElement;
  #chart: Chart<'matrix', Cell[], string> | null = null;
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

    this.#box = document.createElement('div');
    this.#box.className = 'chart-box';
    this.#canvas = document.createElement('canvas');
    this.#canvas.tabIndex = 0;
    this.#canvas.setAttribute('role', 'img');
    const focusId = `${options.id}-focus`;
    this.#canvas.setAttribute('aria-describedby', focusId);
    this.#box.append(this.#canvas);

    const legend = document.createElement('div');
    legend.className = 'legend';
    this.#legendMin = document.createElement('span');
    const bar = document.createElement('span');
    bar.className = 'legend-bar';
    bar.style.backgroundImage = RAMP_CSS;
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

    this.#canvas.addEventListener('focus', () => this.#showFocus());
    this.#canvas.addEventListener('blur', () => this.#clearFocus());
    this.#canvas.addEventListener('keydown', (e) => this.#onKey(e));
  }

  set title(text: string) {
    this.#title.textContent = text;
  }

  update(data: HeatmapData): void {
    const { rows, cols, values, rowLabels, colLabels } = data;
    if (values.length !== rows * cols) throw new Error(`heatmap: expected ${rows * cols} values, got ${values.length}`);
    this.#data = { ...data, values: Array.from(values) };

    let [min, max] = this.#options.fixedRange ?? [Infinity, -Infinity];
    if (!this.#options.fixedRange) {
      for (let i = 0; i < values.length; i++) {
        min = Math.min(min, values[i]);
        max = Math.max(max, values[i]);
      }
    }
    this.#min = min;
    this.#max = max;
    this.#legendMin.textContent = formatValue(min);
    this.#legendMax.textContent = formatValue(max);
    this.#legendMin.title = 'lightest colour';
    this.#legendMax.title = 'darkest colour';

    const cells: Cell[] = [];
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) cells.push({ x: colLabels[c], y: rowLabels[r], v: values[r * cols + c] });
    }
    this.#box.style.height = `${Math.min(380, Math.max(110, rows * 38 + 42))}px`;
    this.#canvas.setAttribute(
      'aria-label',
      `${this.#title.textContent}: ${rows} by ${cols} heatmap, values from ${formatValue(min)} to ${formatValue(max)}. Focus and use the arrow keys to read cells.`,
    );
    this.#output.dataset.shape = `${rows},${cols}`;
    this.#output.value = JSON.stringify(Array.from(values));
    this.#focusIndex = Math.min(this.#focusIndex, cells.length - 1);

    if (!this.#chart) {
      this.#chart = new Chart(this.#canvas, this.#config(cells, rowLabels, colLabels));
    } else {
      const chart = this.#chart;
      chart.data.datasets[0].data = cells;
      const scales = chart.options.scales as Record<string, { labels?: string[] }>;
      scales.x.labels = [...colLabels];
      scales.y.labels = [...rowLabels];
      chart.update('none');
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

  #config(cells: Cell[], rowLabels: readonly string[], colLabels: readonly string[]): ChartConfiguration<'matrix', Cell[], string> {
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
            backgroundColor: (ctx: MatrixCtx) => rampColor(this.#t((ctx.raw as Cell | undefined)?.v ?? 0)),
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
                return cell ? `${cell.y} · ${cell.x}` : '';
              },
              label: (item) => formatValue((item.raw as Cell).v, 4),
            },
          },
        },
        scales: {
          x: {
            type: 'category',
            labels: [...colLabels],
            offset: true,
            position: 'top',
            grid: { display: false },
            border: { display: false },
            ticks: { color: '#334155', font: { size: 12 } },
          },
          y: {
            type: 'category',
            labels: [...rowLabels],
            offset: true,
            reverse: false, // q1 on top, like the matrix it shows (the matrix plugin defaults to true)
            grid: { display: false },
            border: { display: false },
            ticks: { color: '#334155', font: { size: 12 } },
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
          const text = formatValue(cell.v);
          const size = Math.min(13, height * 0.42, (width / Math.max(3, text.length)) * 1.7);
          if (size < 8) continue;
          const { x, y } = el.tooltipPosition(true);
          if (x === null || y === null) continue;
          ctx.font = `${Math.round(size)}px system-ui, sans-serif`;
          ctx.fillStyle = this.#t(cell.v) > 0.5 ? '#ffffff' : '#0f172a';
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
    const chart = this.#chart;
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
    const chart = this.#chart;
    if (!chart) return;
    chart.setActiveElements([]);
    chart.tooltip?.setActiveElements([], { x: 0, y: 0 });
    chart.update('none');
    this.#focusText.textContent = '';
  }
}
