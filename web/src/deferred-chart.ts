// A Chart.js chart that keeps the main thread free. Building a chart costs tens of milliseconds
// (option resolution, text measurement, a forced layout); done for every chart while a section
// mounts, or redrawn on every training chunk, it froze the page (long tasks of 100-500 ms). So:
// - the chart is built in a task of its own: soon when its canvas is on or near the screen, when
//   the browser is idle otherwise (first-draw.ts, shared with deferred-draw.ts);
// - changes before then go into its configuration; changes after are drawn at most once per
//   animation frame, however often the data changes;
// - ensure() builds it at once, for actions that need the pixels (PNG export, keyboard focus).
import { scheduleFirstDraw } from './first-draw';
import { Chart, type ChartConfiguration, type ChartData, type ChartOptions, type ChartType, type DefaultDataPoint } from 'chart.js';

/** What a change may touch: the same fields on the configuration (before) and on the chart (after). */
export interface ChartTarget<TType extends ChartType, TData, TLabel> {
  data: ChartData<TType, TData, TLabel>;
  options: ChartOptions<TType>;
}

export class DeferredChart<TType extends ChartType, TData = DefaultDataPoint<TType>, TLabel = unknown> {
  readonly canvas: HTMLCanvasElement;
  readonly #config: ChartConfiguration<TType, TData, TLabel> & { options: ChartOptions<TType> };
  #chart: Chart<TType, TData, TLabel> | null = null;
  /** cancels the wait for the build (first-draw.ts) */
  #cancelFirst: (() => void) | null;
  #frame = 0;
  #destroyed = false;

  constructor(canvas: HTMLCanvasElement, config: ChartConfiguration<TType, TData, TLabel>) {
    this.canvas = canvas;
    this.#config = { ...config, options: config.options ?? ({} as ChartOptions<TType>) };
    this.#cancelFirst = scheduleFirstDraw(canvas, () => this.ensure());
  }

  /** The chart, or null while it waits to be built. */
  get chart(): Chart<TType, TData, TLabel> | null {
    return this.#chart;
  }

  /** Applies `mutate` (to the configuration, or to the chart and redraws it in the next frame). */
  change(mutate: (target: ChartTarget<TType, TData, TLabel>) => void): void {
    if (this.#destroyed) return;
    const chart = this.#chart;
    if (!chart) {
      mutate(this.#config as ChartTarget<TType, TData, TLabel>);
      return;
    }
    mutate(chart);
    if (this.#frame === 0) {
      this.#frame = requestAnimationFrame(() => {
        this.#frame = 0;
        this.#chart?.update('none');
      });
    }
  }

  /** Redraws with unchanged data (e.g. a plugin's own state changed). */
  redraw(): void {
    this.change(() => {});
  }

  /** Builds the chart now if it is still waiting; returns it (null once destroyed). */
  ensure(): Chart<TType, TData, TLabel> | null {
    if (this.#destroyed) return null;
    if (!this.#chart) {
      this.#stopWaiting();
      const start = performance.now();
      this.#chart = new Chart(this.canvas, this.#config);
      // once per chart: visible in the browser's performance panel, read by scripts/measure-page.mjs
      performance.measure(`chart ${this.canvas.getAttribute('aria-label') ?? ''}`, { start, end: performance.now() });
    }
    return this.#chart;
  }

  destroy(): void {
    this.#destroyed = true;
    this.#stopWaiting();
    if (this.#frame) cancelAnimationFrame(this.#frame);
    this.#frame = 0;
    this.#chart?.destroy();
    this.#chart = null;
  }

  #stopWaiting(): void {
    this.#cancelFirst?.();
    this.#cancelFirst = null;
  }
}
