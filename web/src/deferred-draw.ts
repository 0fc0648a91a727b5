// A canvas drawing that keeps the main thread free (the heatmap's): the plain-canvas counterpart of
// deferred-chart.ts (which wraps Chart.js). The first draw happens in a task of its own, soon when
// the canvas is on or near the screen and when the browser is idle otherwise; later requests are
// drawn at most once per animation frame, however often the data changes; a change of the canvas's
// CSS size redraws it. ensure() draws at once, for actions that need the pixels (PNG export,
// keyboard focus).
//
// The owner keeps its data and passes a draw(ctx, width, height) callback; the canvas is sized for
// devicePixelRatio and cleared (one clearRect per draw) before each call. An owner that has no data
// yet creates it with `ready: false` and calls ready() when the data arrives: the wait for the canvas
// to come on screen has then already run, so a visible canvas draws in the next task.
import { scheduleFirstDraw, type FirstDraw } from './first-draw';
import { Redraw } from './redraw';

/** Draws in CSS pixels: `width` and `height` are the canvas's CSS size. */
export type DrawFunction = (ctx: CanvasRenderingContext2D, width: number, height: number) => void;

export class DeferredDraw {
  readonly canvas: HTMLCanvasElement;
  readonly #draw: DrawFunction;
  #resize: ResizeObserver | null = null;
  /** the wait for the first draw (first-draw.ts) */
  #first: FirstDraw | null;
  /** later draws, in the next animation frame */
  readonly #repaint = new Redraw(() => this.#paint(), { frame: true });
  #drawn = false;
  #destroyed = false;
  #size = '';

  constructor(canvas: HTMLCanvasElement, draw: DrawFunction, options: { ready?: boolean } = {}) {
    this.canvas = canvas;
    this.#draw = draw;
    this.#first = scheduleFirstDraw(canvas, () => this.ensure(), options);
  }

  /** There is something to draw now (for a drawing created with `ready: false`). */
  ready(): void {
    this.#first?.ready();
  }

  /** true once the first draw has happened */
  get drawn(): boolean {
    return this.#drawn;
  }

  /** Redraws in the next animation frame (once, however often it is called); before the first draw, nothing. */
  request(): void {
    if (this.#destroyed || !this.#drawn) return;
    this.#repaint.request();
  }

  /** Draws now if the first draw is still waiting. */
  ensure(): void {
    if (this.#destroyed || this.#drawn) return;
    this.#stopWaiting();
    const start = performance.now();
    this.#drawn = true;
    this.#paint();
    // once per canvas: visible in the browser's performance panel, read by tests/e2e/long-tasks
    performance.measure(`chart ${this.canvas.getAttribute('aria-label') ?? ''}`, { start, end: performance.now() });
    this.#resize = new ResizeObserver(() => {
      if (this.#sizeKey() !== this.#size) this.request();
    });
    this.#resize.observe(this.canvas);
  }

  destroy(): void {
    this.#destroyed = true;
    this.#stopWaiting();
    this.#resize?.disconnect();
    this.#resize = null;
    this.#repaint.stop();
  }

  #sizeKey(): string {
    const r = this.canvas.getBoundingClientRect();
    return `${Math.round(r.width)}x${Math.round(r.height)}@${globalThis.devicePixelRatio || 1}`;
  }

  #paint(): void {
    const canvas = this.canvas;
    const rect = canvas.getBoundingClientRect();
    const width = Math.max(1, Math.round(rect.width));
    const height = Math.max(1, Math.round(rect.height));
    const ratio = globalThis.devicePixelRatio || 1;
    const pw = Math.round(width * ratio);
    const ph = Math.round(height * ratio);
    if (canvas.width !== pw) canvas.width = pw;
    if (canvas.height !== ph) canvas.height = ph;
    this.#size = this.#sizeKey();
    const ctx = canvas.getContext('2d');
    if (!ctx) return;
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.clearRect(0, 0, width, height);
    this.#draw(ctx, width, height);
  }

  #stopWaiting(): void {
    this.#first?.cancel();
    this.#first = null;
  }
}
