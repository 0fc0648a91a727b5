// §3.3's charts: training loss and accuracy against the step (line charts, long runs averaged into
// at most MAX_POINTS buckets), and the decoder's top-k candidates at one step (horizontal bars, the
// chosen word darker). Plain canvas (line-chart.ts, bar-chart.ts): drawn off the mount task and at
// most once a frame while training.
import type { TokenProb } from '../../../shared/types/seq2seq';
import { BarChart } from '../bar-chart';
import { LineChart } from '../line-chart';

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

/** A titled figure holding the chart's box (the box sets the chart's size, translate.css). */
function box(host: HTMLElement, className: string, title: string): HTMLElement {
  const fig = document.createElement('figure');
  fig.className = className;
  const cap = document.createElement('figcaption');
  cap.textContent = title;
  const wrap = document.createElement('div');
  wrap.className = 'tr-chart-box';
  fig.append(cap, wrap);
  host.append(fig);
  return wrap;
}

const CHOSEN = '#1d4ed8';
const CANDIDATE = '#93c5fd';

export class StepChart {
  readonly #chart: LineChart;
  readonly #title: string;
  readonly #color: string;

  constructor(host: HTMLElement, title: string, xLabel: string, color: string, yRange?: [number, number]) {
    this.#title = title;
    this.#color = color;
    this.#chart = new LineChart(box(host, 'tr-step-chart', title), {
      label: title,
      x: { kind: 'linear', min: 0, integerStep: true, title: xLabel },
      y: { min: yRange?.[0] ?? 0, max: yRange?.[1] },
    });
  }

  /** The canvas, drawn (now if it was still waiting): for the PNG export. */
  get canvas(): HTMLCanvasElement {
    return this.#chart.ensure();
  }

  update(values: readonly number[]): void {
    this.#chart.update({ series: [{ label: this.#title, color: this.#color, width: 1.5, points: downsample(values) }] });
  }

  destroy(): void {
    this.#chart.destroy();
  }
}

export class TopKChart {
  readonly #chart: BarChart;

  constructor(host: HTMLElement, title: string, label: string) {
    this.#chart = new BarChart(box(host, 'tr-topk-chart', title), { label, min: 0, max: 1, format: (p) => p.toFixed(3) });
  }

  get canvas(): HTMLCanvasElement {
    return this.#chart.canvas;
  }

  /** The candidates, most probable first; `chosen` is drawn darker. */
  update(top: readonly TokenProb[], chosen: string): void {
    this.#chart.update(top.map((p) => ({ label: p.token, value: p.prob, color: p.token === chosen ? CHOSEN : CANDIDATE })));
  }

  destroy(): void {
    this.#chart.destroy();
  }
}
