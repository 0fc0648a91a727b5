// Horizontal bars on a plain canvas: one bar per category (its label on the left, in any script,
// shortened with … when too wide), a value axis with "nice" ticks below, and each bar's value as
// text at its end. Drawing is scheduled by deferred-draw.ts (off the mount task, at most once per
// animation frame).
import { CHART_FONT, CHART_INK, chartCanvas, fitLabel, formatTick, labelsThatFit, linearScale, niceAxis } from './chart-axes';
import { DeferredDraw } from './deferred-draw';

export interface Bar {
  readonly label: string;
  readonly value: number;
  readonly color: string;
}

export interface BarChartOptions {
  /** the canvas's accessible name (and its "chart …" performance measure) */
  label: string;
  /** value range (default 0 … 1, probabilities) */
  min?: number;
  max?: number;
  /** a bar's value as text (default: 3 decimals) */
  format?: (value: number) => string;
}

const TICK_LENGTH = 4;
const LINE_HEIGHT = 14;
/** category labels take at most this share of the width */
const LABEL_SHARE = 0.4;
const MAX_BAR = 26;

/** Text colour that reads on a '#rrggbb' fill: dark on light fills, white on dark ones. */
function textOn(fill: string): string {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(fill);
  if (!m) return '#0f172a';
  const [r, g, b] = m.slice(1).map((h) => parseInt(h, 16) / 255);
  // Rec. 709 luma of the (gamma-encoded) colour: enough to pick black or white text
  return 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.55 ? '#0f172a' : '#ffffff';
}

export class BarChart {
  readonly canvas: HTMLCanvasElement;
  readonly #options: BarChartOptions;
  readonly #draw: DeferredDraw;
  #bars: readonly Bar[] = [];

  /** `host` sets the chart's size. */
  constructor(host: HTMLElement, options: BarChartOptions) {
    this.#options = options;
    this.canvas = chartCanvas(host, options.label);
    this.#draw = new DeferredDraw(this.canvas, (ctx, w, h) => this.#paint(ctx, w, h));
  }

  /** The bars, top to bottom. */
  update(bars: readonly Bar[]): void {
    for (const b of bars) {
      if (!Number.isFinite(b.value)) throw new Error(`BarChart: the value of “${b.label}” is ${b.value}, not a number`);
    }
    this.#bars = bars;
    this.#draw.request();
  }

  /** The canvas, drawn now if its first draw was still waiting (PNG export). */
  ensure(): HTMLCanvasElement {
    this.#draw.ensure();
    return this.canvas;
  }

  destroy(): void {
    this.#draw.destroy();
  }

  #paint(ctx: CanvasRenderingContext2D, width: number, height: number): void {
    const bars = this.#bars;
    const format = this.#options.format ?? ((v: number) => v.toFixed(3));
    ctx.font = CHART_FONT;
    const measure = (text: string) => ctx.measureText(text).width;

    const labelWidth = Math.min(width * LABEL_SHARE, Math.max(0, ...bars.map((b) => measure(b.label))));
    const labels = bars.map((b) => fitLabel(b.label, labelWidth, measure));
    const top = 6;
    const bottom = height - LINE_HEIGHT - TICK_LENGTH - 4;
    const left = 6 + labelWidth + 6;

    const axis = niceAxis(this.#options.min ?? 0, this.#options.max ?? 1, 5, { min: this.#options.min ?? 0, max: this.#options.max ?? 1 });
    const tickLabels = axis.ticks.map((v) => formatTick(v, axis.step));
    const right = width - 4 - measure(tickLabels.at(-1) ?? '') / 2;
    const x = linearScale(axis.min, axis.max, left, right);

    // grid, axis line, ticks (labels thinned on narrow screens)
    ctx.lineWidth = 1;
    ctx.strokeStyle = CHART_INK.grid;
    ctx.beginPath();
    for (const v of axis.ticks) {
      const px = Math.round(x(v)) + 0.5;
      ctx.moveTo(px, top);
      ctx.lineTo(px, bottom);
    }
    ctx.stroke();
    ctx.strokeStyle = CHART_INK.axis;
    ctx.beginPath();
    ctx.moveTo(left + 0.5, top);
    ctx.lineTo(left + 0.5, bottom + 0.5);
    ctx.lineTo(right, bottom + 0.5);
    ctx.stroke();
    ctx.fillStyle = CHART_INK.text;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    const centers = axis.ticks.map((v) => x(v));
    for (const i of labelsThatFit(centers, tickLabels.map(measure), 6)) {
      ctx.fillText(tickLabels[i], centers[i], bottom + TICK_LENGTH + LINE_HEIGHT / 2 + 1);
    }

    // bars, their category labels and values
    if (bars.length === 0) return;
    const band = (bottom - top) / bars.length;
    const thickness = Math.min(MAX_BAR, band * 0.72);
    bars.forEach((b, i) => {
      const cy = top + (i + 0.5) * band;
      const end = x(Math.min(axis.max, Math.max(axis.min, b.value)));
      ctx.fillStyle = b.color;
      ctx.fillRect(left + 1, cy - thickness / 2, Math.max(0, end - left - 1), thickness);
      ctx.fillStyle = CHART_INK.title;
      ctx.textAlign = 'right';
      ctx.fillText(labels[i], left - 6, cy);
      // the value right of the bar, or inside its end when the bar reaches the edge
      const text = format(b.value);
      const w = measure(text);
      if (end + 4 + w <= width - 2) {
        ctx.textAlign = 'left';
        ctx.fillStyle = CHART_INK.text;
        ctx.fillText(text, end + 4, cy);
      } else {
        ctx.textAlign = 'right';
        ctx.fillStyle = textOn(b.color);
        ctx.fillText(text, end - 4, cy);
      }
    });
  }
}
