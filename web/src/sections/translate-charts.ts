// §3.3's charts: training loss and accuracy against the step (line charts, long runs averaged into
// at most MAX_POINTS buckets), and the decoder's top-k candidates at one step (horizontal bars, the
// chosen word darker). Only the Chart.js parts these need are registered.
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
} from 'chart.js';
import type { TokenProb } from '../../../shared/types/seq2seq';
import { DeferredChart } from '../deferred-chart';

Chart.register(LineController, LineElement, PointElement, BarController, BarElement, LinearScale, CategoryScale, Tooltip);

const MAX_POINTS = 400;

/** Bucket means of `values` (x: the bucket's middle step, 1-based), at most MAX_POINTS of them. */
export function downsample(values: readonly number[], maxPoints = MAX_POINTS): { x: number; y: number }[] {
  const size = Math.max(1, Math.ceil(values.length / maxPoints));
  const out: { x: number; y: number }[] = [];
  for (let start = 0; start < values.length; start += size) {
    const end = Math.min(values.length, start + size);
    let sum = 0;
    for (let i = start; i < end; i++) sum += values[i];
    out.push({ x: (start + end + 1) / 2, y: sum / (end - start) });
  }
  return out;
}

/** Trailing moving average over `window` values. */
export function movingAverage(values: readonly number[], window: number): number[] {
  const out: number[] = [];
  let sum = 0;
  for (let i = 0; i < values.length; i++) {
    sum += values[i];
    if (i >= window) sum -= values[i - window];
    out.push(sum / Math.min(i + 1, window));
  }
  return out;
}

function box(host: HTMLElement, className: string, title: string, label: string): HTMLCanvasElement {
  const fig = document.createElement('figure');
  fig.className = className;
  const cap = document.createElement('figcaption');
  cap.textContent = title;
  const wrap = document.createElement('div');
  wrap.className = 'tr-chart-box';
  const canvas = document.createElement('canvas');
  canvas.setAttribute('role', 'img');
  canvas.setAttribute('aria-label', label);
  wrap.append(canvas);
  fig.append(cap, wrap);
  host.append(fig);
  return canvas;
}

// Charts are built off the mount task and redrawn at most once a frame while training (deferred-chart.ts).
export class StepChart {
  readonly #canvas: HTMLCanvasElement;
  readonly #chart: DeferredChart<'line', { x: number; y: number }[]>;

  constructor(host: HTMLElement, title: string, xLabel: string, color: string, yRange?: [number, number]) {
    this.#canvas = box(host, 'tr-step-chart', title, title);
    this.#chart = new DeferredChart(this.#canvas, {
      type: 'line',
      data: { datasets: [{ label: title, data: [], borderColor: color, backgroundColor: color, borderWidth: 1.5, pointRadius: 0 }] },
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        parsing: false,
        scales: {
          x: { type: 'linear', min: 0, title: { display: true, text: xLabel } },
          y: { type: 'linear', min: yRange?.[0] ?? 0, max: yRange?.[1] },
        },
        plugins: { legend: { display: false }, tooltip: { intersect: false, mode: 'nearest' } },
      },
    });
  }

  /** The canvas, drawn (built now if it was still waiting): for the PNG export. */
  get canvas(): HTMLCanvasElement {
    this.#chart.ensure();
    return this.#canvas;
  }

  update(values: readonly number[]): void {
    const points = downsample(values);
    this.#chart.change((chart) => {
      chart.data.datasets[0].data = points;
    });
  }

  destroy(): void {
    this.#chart.destroy();
  }
}

export class TopKChart {
  readonly canvas: HTMLCanvasElement;
  readonly #chart: DeferredChart<'bar', number[], string>;

  constructor(host: HTMLElement, title: string, label: string) {
    this.canvas = box(host, 'tr-topk-chart', title, label);
    this.#chart = new DeferredChart(this.canvas, {
      type: 'bar',
      data: { labels: [], datasets: [{ label: title, data: [], backgroundColor: [] }] },
      options: {
        indexAxis: 'y',
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        scales: { x: { type: 'linear', min: 0, max: 1 }, y: { type: 'category' } },
        plugins: { legend: { display: false }, tooltip: { callbacks: { label: (item) => `p = ${Number(item.raw).toFixed(4)}` } } },
      },
    });
  }

  /** The candidates, most probable first; `chosen` is drawn darker. */
  update(top: readonly TokenProb[], chosen: string): void {
    this.#chart.change((c) => {
      c.data.labels = top.map((p) => p.token);
      c.data.datasets[0].data = top.map((p) => p.prob);
      c.data.datasets[0].backgroundColor = top.map((p) => (p.token === chosen ? '#1d4ed8' : '#93c5fd'));
    });
  }

  destroy(): void {
    this.#chart.destroy();
  }
}
