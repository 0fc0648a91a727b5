// The training curves of §3.3 and §4: loss and accuracy against the step (line charts; a long run is
// thinned for drawing as it grows, step-series.ts, the exports keep every step) with their export
// menu and empty state (TrainingCurves, one for both sections), each chart in a titled box. Chart.js
// (line-chart.ts), loaded after the first heatmap: built off the mount task, drawn at most once a frame.
import type { Chart } from 'chart.js';
import { chartPictures } from '../charts/deferred-chart';
import { LineChart } from '../charts/line-chart';
import { RunningAverage, StepThinning } from '../charts/step-series';
import { Figure } from '../figure';
import { el } from './dom';

/** Below this many steps the losses output is rewritten at every update; above, every LOSSES_WRITE_MS. */
const LOSSES_WRITTEN_EVERY_FRAME = 2000;
const LOSSES_WRITE_MS = 500;

/**
 * One line against the step, in one colour, in a figure captioned with its title, holding the
 * chart's box (the box sets the chart's size, translate.css). No menu of its own: the curves share one.
 */
class StepChart extends Figure<readonly number[]> {
  readonly #chart: LineChart;
  readonly #color: string;
  readonly #thinning = new StepThinning();

  constructor(host: HTMLElement, title: string, xLabel: string, color: string, yRange?: [number, number]) {
    super({ title, heading: { tag: 'figcaption' } });
    this.#color = color;
    const fig = el('figure', 'translate-step-chart');
    const box = el('div', 'translate-chart-box');
    fig.append(this.heading!, box);
    host.append(fig);
    this.#chart = new LineChart(box, {
      label: title,
      x: { kind: 'linear', min: 0, integerStep: true, title: xLabel },
      y: { min: yRange?.[0] ?? 0, max: yRange?.[1] },
    });
  }

  /** The chart once built (for the curves' picture). */
  built(): Promise<Chart | null> {
    return this.#chart.built();
  }

  /** `values`: one per step, an array that grows (a trainer's history): only new values are read. */
  update(values: readonly number[]): void {
    this.#chart.update({ series: [{ label: this.title, color: this.#color, width: 1.5, points: this.#thinning.points(values) }] });
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
 * <output> (tests read it). The section places the four parts. `slug` (its section's) starts the
 * string keys, classes, test ids and file names. The figure's title is the
 * loss chart's (it names the menu and the picture); its data is the accuracy's averaging window, as
 * the curves read the trainer's history, which grows in place, themselves.
 */
export class TrainingCurves extends Figure<number> {
  declare readonly menu: HTMLElement;
  readonly empty: HTMLParagraphElement;
  readonly charts: HTMLDivElement;
  readonly losses: HTMLOutputElement;
  readonly #loss: StepChart;
  readonly #accuracy: StepChart;
  readonly #history: () => TrainingHistory;
  readonly #accuracyAverage = new RunningAverage();
  /** the losses output: how many it holds, when it was written, and the write it waits for */
  #lossesWritten = { count: -1, at: 0, source: null as readonly number[] | null };
  #lossesTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(t: (key: string) => string, slug: 'translate' | 'transformer', history: () => TrainingHistory) {
    super({
      title: t(`${slug}.loss`),
      t,
      fileName: `${slug}-training`,
      pictureName: `${slug}-loss`,
      exports: {
        ...chartPictures(() => this.#loss.built()),
        table: () => {
          const { losses, accuracies } = history();
          return { rowLabels: losses.map((_, i) => String(i + 1)), colLabels: ['loss', 'token accuracy'], values: losses.flatMap((l, i) => [l, accuracies[i]]) };
        },
        json: () => {
          const { settings, losses, accuracies } = history();
          return { settings, losses, tokenAccuracy: accuracies };
        },
      },
    });
    this.#history = history;
    this.empty = el('p', `${slug}-note ${slug}-charts-empty`, t(`${slug}.charts.empty`));
    this.empty.dataset.testid = `${slug}-charts-empty`;
    this.charts = el('div', `${slug}-charts`);
    const stepTitle = t(`${slug}.axis.step`);
    this.#loss = new StepChart(this.charts, t(`${slug}.loss`), stepTitle, '#c2410c');
    this.#accuracy = new StepChart(this.charts, t(`${slug}.accuracy`), stepTitle, '#15803d', [0, 1]);
    this.losses = el('output', `${slug}-losses`);
    this.losses.hidden = true;
    this.losses.dataset.testid = `${slug}-losses`;
  }

  /** Redraws from the history; the accuracy is averaged over the last `window` steps. */
  update(window: number): void {
    const { step, losses, accuracies } = this.#history();
    this.empty.hidden = step > 0;
    // empty axes say nothing: the charts and their menu show from the first step (the line says what fills them)
    this.charts.hidden = this.menu.hidden = step === 0;
    this.#writeLosses();
    this.#loss.update(losses);
    this.#accuracy.update(this.#accuracyAverage.of(accuracies, window));
  }

  /**
   * The losses as JSON in the hidden output: every step's, so the text grows with the run. While
   * a long run plays it is rewritten at most every LOSSES_WRITE_MS (not at every frame), and once
   * more when the updates stop.
   */
  #writeLosses(): void {
    const { losses } = this.#history();
    const written = this.#lossesWritten;
    if (losses === written.source && losses.length === written.count) return;
    const now = performance.now();
    const wait = losses.length < LOSSES_WRITTEN_EVERY_FRAME || losses !== written.source ? 0 : written.at + LOSSES_WRITE_MS - now;
    if (this.#lossesTimer !== null) clearTimeout(this.#lossesTimer);
    this.#lossesTimer = null;
    if (wait > 0) {
      this.#lossesTimer = setTimeout(() => {
        this.#lossesTimer = null;
        this.#writeLosses();
      }, wait);
      return;
    }
    this.losses.value = JSON.stringify(losses);
    this.#lossesWritten = { count: losses.length, at: now, source: losses };
  }

  destroy(): void {
    if (this.#lossesTimer !== null) clearTimeout(this.#lossesTimer);
    this.#loss.destroy();
    this.#accuracy.destroy();
  }
}
