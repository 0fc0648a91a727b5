// A Chart.js chart that keeps the main thread free and the first download small. Building a chart
// costs tens of milliseconds (option resolution, text measurement, a forced layout); done for every
// chart while a section mounts, or redrawn on every training chunk, it froze the page. So:
// - Chart.js itself is loaded on demand (chart-setup.ts, a dynamic import), after the page's first
//   heatmap has drawn (first-draw.ts): a page of heatmaps never downloads it;
// - the chart is built in a task of its own: soon when its canvas is on or near the screen, when
//   the browser is idle otherwise (first-draw.ts, shared with deferred-draw.ts). Charts whose turn
//   comes together (all of them when Chart.js arrives) queue, one build per task (buildSoon);
// - changes before then go into its configuration; changes after are drawn in a task of their
//   own, at most once a frame's time, however often the data changes;
// - ensure() builds it at once if Chart.js has arrived; built() waits for it (exports).
import type { Chart, ChartConfiguration, ChartData, ChartOptions, ChartType, DefaultDataPoint } from 'chart.js';
import { afterFirstHeatmap, scheduleFirstDraw } from '../first-draw';
import { Redraw } from '../redraw';
import { restyleOnSchemeChange } from '../scheme';

/**
 * A chart colour as the chart's own canvas sees the tokens: the token `token` where the canvas is in
 * a dark scope (the article in dark mode, or a dark widget on any page), else the light value.
 */
export function canvasColor(canvas: Element, token: string, light: string): string {
  const style = getComputedStyle(canvas);
  if (!darkScope(style)) return light;
  return style.getPropertyValue(token).trim() || light;
}

/** Whether an element's computed style has the dark tokens (design-dark.css, or a dark widget's). */
const darkScope = (style: CSSStyleDeclaration): boolean => style.getPropertyValue('--lab-scheme').trim() === 'dark';

/** Whether `canvas` is drawn in the dark scheme's colours. */
export const inDarkScope = (canvas: Element): boolean => darkScope(getComputedStyle(canvas));


/**
 * The series colours the sections use (light: Tailwind's 700 shades, ≥ 4.5:1 on white) and the same
 * hues for a dark panel (the 400 shades, ≥ 6:1 on --lab-panel's #111827).
 */
export const DARK_SERIES: Readonly<Record<string, string>> = {
  '#1d4ed8': '#60a5fa',
  '#c2410c': '#fb923c',
  '#15803d': '#4ade80',
  '#475569': '#94a3b8',
  '#94a3b8': '#64748b',
  '#0f172a': '#e2e8f0',
};

/**
 * A series colour (one of DARK_SERIES's keys) as drawn on the chart's canvas (or its legend, beside
 * it): its dark twin where that element is in a dark scope, as canvasColor.
 */
export function seriesColor(canvas: Element, light: string): string {
  return darkScope(getComputedStyle(canvas)) ? (DARK_SERIES[light.toLowerCase()] ?? light) : light;
}

/** What an app plugin drew over a chart (a marker line, a bar's value), for the SVG export. */
export type ChartOverlay =
  | { kind: 'line'; x1: number; y1: number; x2: number; y2: number; color: string; dash?: readonly number[] }
  | { kind: 'text'; x: number; y: number; text: string; color: string; align: 'left' | 'right' | 'center' };
/** per chart, the overlays of its last draw (the plugins replace the list on each draw) */
export const chartOverlays = new WeakMap<object, ChartOverlay[]>();

type ChartModule = typeof import('./chart-setup');
let chartModule: ChartModule | null = null;
let loading: Promise<ChartModule> | null = null;

/** Chart.js, registered (loads it the first time, after the first heatmap has drawn). */
export function loadChartJs(): Promise<ChartModule> {
  loading ??= afterFirstHeatmap()
    .then(() => import('./chart-setup'))
    .then((m) => (chartModule = m));
  return loading;
}

/** a frame's time at 60 frames a second: a chart updates at most this often */
const FRAME_MS = 1000 / 60;

// Builds waiting for a task of their own, oldest first. Without the queue, every chart that asked
// for Chart.js before it arrived was built in that promise's callbacks, one after another in one
// task: on a 2-core machine with the worker busy, 150 ms and more.
const buildQueue: (() => void)[] = [];
let buildTimer: ReturnType<typeof setTimeout> | null = null;

/** Runs `build` in a task of its own, after the builds queued before it. */
export function buildSoon(build: () => void): void {
  buildQueue.push(build);
  buildTimer ??= setTimeout(buildNext, 0);
}

function buildNext(): void {
  buildTimer = null;
  try {
    buildQueue.shift()?.();
  } finally {
    // a build that throws (reported as any uncaught error) does not hold up the others
    if (buildQueue.length > 0) buildTimer = setTimeout(buildNext, 0);
  }
}

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
  /**
   * The built chart's redraws: in a task of their own, so that the charts and heatmaps that change
   * together (§3.3's loss, accuracy and attention while it plays) never add up to one long task,
   * which would hold up the page's input; at most once a frame's time, however often the data
   * changes; not in an animation-frame callback, which would draw the chart a frame after the rest
   * of the change.
   */
  readonly #update = new Redraw(() => this.#chart?.update('none'), { everyMs: FRAME_MS });
  #destroyed = false;
  readonly #builtWaiters: ((chart: Chart<TType, TData, TLabel> | null) => void)[] = [];
  /** what the configuration still waits for (`before`), null once it has arrived */
  #before: Promise<unknown> | null;

  /** `before`: the chart is built only once it has settled (e.g. the code of a log axis, loaded on demand) */
  constructor(canvas: HTMLCanvasElement, config: ChartConfiguration<TType, TData, TLabel>, before?: Promise<unknown>) {
    this.canvas = canvas;
    this.#config = { ...config, options: config.options ?? ({} as ChartOptions<TType>) };
    this.#before = before?.finally(() => {
      this.#before = null;
      buildSoon(() => this.ensure());
    }) ?? null;
    // Chart.js (44 KB gzip) comes when a chart first nears the screen, not at idle: most charts are
    // hidden until training starts, and a page with one widget then loads no more than it shows
    this.#cancelFirst = scheduleFirstDraw(
      canvas,
      () => {
        void loadChartJs().then(() => buildSoon(() => this.ensure()));
      },
      { whenAway: false },
    ).cancel;
    restyleOnSchemeChange(this); // its axes' and labels' ink is the canvas's tokens (canvasColor)
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
    this.#update.request();
  }

  /** Redraws with unchanged data (e.g. a plugin's own state changed). */
  redraw(): void {
    this.change(() => {});
  }

  /** Redraws in the colours now in effect (scheme.ts). */
  restyle(): void {
    this.redraw();
  }

  /** Builds the chart now if it is still waiting and Chart.js has arrived; returns it, or null. */
  ensure(): Chart<TType, TData, TLabel> | null {
    if (this.#destroyed || this.#before) return null;
    if (!this.#chart && chartModule) {
      this.#stopWaiting();
      const start = performance.now();
      this.#chart = new chartModule.Chart(this.canvas, this.#config) as unknown as Chart<TType, TData, TLabel>;
      // once per chart: visible in the browser's performance panel, read by scripts/measure-page.mjs
      performance.measure(`chart ${this.canvas.dataset.chartLabel ?? this.canvas.getAttribute('aria-label') ?? ''}`, { start, end: performance.now() });
      for (const fn of this.#builtWaiters.splice(0)) fn(this.#chart);
    }
    if (!this.#chart && !chartModule) void loadChartJs().then(() => buildSoon(() => this.ensure()));
    return this.#chart;
  }

  /** The chart once built, now if need be (null once destroyed): for exports. */
  built(): Promise<Chart<TType, TData, TLabel> | null> {
    const chart = this.ensure();
    if (chart || this.#destroyed) return Promise.resolve(chart);
    return new Promise((resolve) => this.#builtWaiters.push(resolve));
  }

  destroy(): void {
    this.#destroyed = true;
    this.#stopWaiting();
    this.#update.stop();
    this.#chart?.destroy();
    this.#chart = null;
    for (const fn of this.#builtWaiters.splice(0)) fn(null);
  }

  #stopWaiting(): void {
    this.#cancelFirst?.();
    this.#cancelFirst = null;
  }
}

/**
 * A chart's picture for a figure's export menu (figure.ts): the chart under the figure's title, as a
 * canvas (PNG) and as SVG (chart-export.ts, loaded on export). `built`: the chart, built now if need be.
 */
export function chartPictures(built: () => Promise<Chart<never, never, never> | Chart | null>): {
  png: (title: string) => Promise<HTMLCanvasElement | null>;
  svg: (title: string) => Promise<string | null>;
} {
  const exporter = async () => {
    const chart = (await built()) as Chart | null;
    return chart ? { chart, draw: await import('./chart-export') } : null;
  };
  return {
    png: async (title) => {
      const e = await exporter();
      return e && e.draw.chartPngCanvas(e.chart, title);
    },
    svg: async (title) => {
      const e = await exporter();
      return e && e.draw.chartSvg(e.chart, title);
    },
  };
}
