// §3.3's charts: training loss and accuracy against the step (line charts; a long run is thinned for
// drawing by Chart.js's decimation plugin, the exports keep every step), and the decoder's top-k
// candidates at one step (horizontal bars, the chosen word darker). Chart.js (line-chart.ts,
// bar-chart.ts), loaded after the first heatmap: built off the mount task, drawn at most once a frame.
import type { TokenProb } from '#shared/types/seq2seq';
import { BarChart } from '../charts/bar-chart';
import { LineChart } from '../charts/line-chart';

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

  /** PNG and SVG export handlers (the chart under its title). */
  pictures(name: string): { png: () => Promise<void>; svg: () => Promise<void> } {
    return this.#chart.pictures(name, this.#title);
  }

  update(values: readonly number[]): void {
    this.#chart.update({ series: [{ label: this.#title, color: this.#color, width: 1.5, points: values.map((y, i) => ({ x: i + 1, y })) }] });
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

  pictures(name: string, title: string): { png: () => Promise<void>; svg: () => Promise<void> } {
    return this.#chart.pictures(name, title);
  }

  /** The candidates, most probable first; `chosen` is drawn darker. */
  update(top: readonly TokenProb[], chosen: string): void {
    this.#chart.update(top.map((p) => ({ label: p.token, value: p.prob, color: p.token === chosen ? CHOSEN : CANDIDATE })));
  }

  destroy(): void {
    this.#chart.destroy();
  }
}
