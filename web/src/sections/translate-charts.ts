// The training curves of §3.3 and §4: loss and accuracy against the step (line charts; a long run is
// thinned for drawing by Chart.js's decimation plugin, the exports keep every step) with their export
// menu and empty state (TrainingCurves, one for both sections), and the titled box every chart of the
// two sections sits in (§3.3's top-k bars too, translate-decode.ts). Chart.js (line-chart.ts), loaded
// after the first heatmap: built off the mount task, drawn at most once a frame.
import { LineChart } from '../charts/line-chart';
import { downloadCsv, downloadJson, exportButtons } from '../export';
import { el } from './dom';

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
export function chartBox(host: HTMLElement, className: string, title: string): HTMLElement {
  const fig = el('figure', className);
  const wrap = el('div', 'tr-chart-box');
  fig.append(el('figcaption', undefined, title), wrap);
  host.append(fig);
  return wrap;
}

/** One line against the step, titled, in one colour. */
class StepChart {
  readonly #chart: LineChart;
  readonly #title: string;
  readonly #color: string;

  constructor(host: HTMLElement, title: string, xLabel: string, color: string, yRange?: [number, number]) {
    this.#title = title;
    this.#color = color;
    this.#chart = new LineChart(chartBox(host, 'tr-step-chart', title), {
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

/** What a trainer has run through, as the curves read it. */
interface TrainingHistory {
  step: number;
  losses: readonly number[];
  accuracies: readonly number[];
  settings: unknown;
}

/**
 * A section's training curves: loss and token accuracy (a moving average) against the step, one
 * export menu for both (PNG and SVG of the loss chart; CSV and JSON of every step, the settings in
 * the JSON), a line saying there is nothing to draw yet, and the losses as JSON in a hidden
 * <output> (tests read it). The section places the four parts. `prefix` is the string keys' and
 * classes' ('tr', 'tf'), `id` the test ids' and file names' ('s2s', 'tf').
 */
export class TrainingCurves {
  readonly empty: HTMLParagraphElement;
  readonly charts: HTMLDivElement;
  readonly menu: HTMLElement;
  readonly losses: HTMLOutputElement;
  readonly #loss: StepChart;
  readonly #accuracy: StepChart;
  readonly #history: () => TrainingHistory;

  constructor(t: (key: string) => string, prefix: 'tr' | 'tf', id: 's2s' | 'tf', history: () => TrainingHistory) {
    this.#history = history;
    this.empty = el('p', `${prefix}-note ${prefix}-charts-empty`, t(`${prefix}.charts.empty`));
    this.empty.dataset.testid = `${id}-charts-empty`;
    this.charts = el('div', `${prefix}-charts`);
    const stepTitle = t(`${prefix}.axis.step`);
    this.#loss = new StepChart(this.charts, t(`${prefix}.loss`), stepTitle, '#c2410c');
    this.#accuracy = new StepChart(this.charts, t(`${prefix}.accuracy`), stepTitle, '#15803d', [0, 1]);
    const file = `${id}-training`;
    this.menu = exportButtons(
      t,
      {
        ...this.#loss.pictures(`${id}-loss`),
        csv: () => {
          const { losses, accuracies } = history();
          downloadCsv(file, losses.map((_, i) => String(i + 1)), ['loss', 'token accuracy'], losses.flatMap((l, i) => [l, accuracies[i]]));
        },
        json: () => {
          const { settings, losses, accuracies } = history();
          downloadJson(file, { settings, losses, tokenAccuracy: accuracies });
        },
      },
      t(`${prefix}.loss`),
    );
    this.losses = el('output', `${prefix}-losses`);
    this.losses.hidden = true;
    this.losses.dataset.testid = `${id}-losses`;
  }

  /** Redraws from the history; the accuracy is averaged over the last `window` steps. */
  update(window: number): void {
    const { step, losses, accuracies } = this.#history();
    this.empty.hidden = step > 0;
    this.losses.value = JSON.stringify(losses);
    this.#loss.update(losses);
    this.#accuracy.update(movingAverage(accuracies, window));
  }

  destroy(): void {
    this.#loss.destroy();
    this.#accuracy.destroy();
  }
}
