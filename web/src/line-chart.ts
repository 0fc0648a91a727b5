// A line chart on a plain canvas (no chart library: a page with one widget must stay small). Several
// series, dashed or solid, with optional point markers; a linear, log or category x axis; a fixed or
// automatic y range with "nice" ticks; axis titles; a legend below the plot; and, under the pointer,
// a guide line at the nearest x with its values as text (a DOM box over the canvas, textContent).
// Drawing is scheduled by deferred-draw.ts: off the mount task, at most once per animation frame.
import {
  CHART_FONT,
  CHART_INK,
  CHART_TITLE_FONT,
  chartCanvas,
  formatTick,
  labelsThatFit,
  linearScale,
  logScale,
  logTicks,
  nearestIndex,
  niceAxis,
  type Scale,
} from './chart-axes';
import { DeferredDraw } from './deferred-draw';

export interface LinePoint {
  readonly x: number;
  /** null or NaN: no value here (the line joins its neighbours) */
  readonly y: number | null;
}

export interface LineSeries {
  readonly label: string;
  readonly color: string;
  readonly points: readonly LinePoint[];
  /** canvas dash pattern, e.g. [6, 4]; solid when absent */
  readonly dash?: readonly number[];
  readonly width?: number;
  readonly marker?: 'none' | 'circle' | 'triangle';
  readonly markerRadius?: number;
}

export interface LineChartData {
  readonly series: readonly LineSeries[];
  /** tick labels of a category x axis: point x = index into this list */
  readonly categories?: readonly string[];
}

export type XAxisOptions =
  | { kind: 'linear'; min?: number; max?: number; integerStep?: boolean; title?: string }
  /** `ticks`: the values to mark (default: powers of ten) */
  | { kind: 'log'; min: number; max: number; ticks?: readonly number[]; title?: string }
  | { kind: 'category'; title?: string };

export interface YAxisOptions {
  min?: number;
  max?: number;
  title?: string;
  /** tick text (default: as many decimals as the tick step needs) */
  format?: (value: number) => string;
  /** readout text (default: 4 significant digits) */
  readout?: (value: number) => string;
}

/** The plot rectangle and its scales, handed to an overlay. */
export interface PlotFrame {
  left: number;
  top: number;
  right: number;
  bottom: number;
  x: Scale;
  y: Scale;
}

export interface LineChartOptions {
  /** the canvas's accessible name (and its "chart …" performance measure) */
  label: string;
  x: XAxisOptions;
  y: YAxisOptions;
  legend?: boolean;
  /** what the readout calls x (default: the x title) */
  xName?: string;
  /** drawn over the series, e.g. a marker line */
  overlay?: (ctx: CanvasRenderingContext2D, frame: PlotFrame) => void;
}

const TICK_LENGTH = 4;
const LINE_HEIGHT = 14;
const LEGEND_SAMPLE = 22;
const LEGEND_GAP = 12;
/** readout digits for values without a format */
const READOUT_DIGITS = 4;

interface LegendItem {
  series: LineSeries;
  x: number;
  row: number;
}

interface LegendLayout {
  items: LegendItem[];
  /** the width of each row (index = row), for centring it */
  rowWidths: number[];
  height: number;
}

/** Legend rows of the series labels within `width`: item positions relative to the legend's top left. */
function layoutLegend(ctx: CanvasRenderingContext2D, series: readonly LineSeries[], width: number): LegendLayout {
  const items: LegendItem[] = [];
  const rowWidths: number[] = [];
  let x = 0;
  let row = 0;
  for (const s of series) {
    const w = LEGEND_SAMPLE + 4 + ctx.measureText(s.label).width;
    if (x > 0 && x + w > width) {
      x = 0;
      row++;
    }
    items.push({ series: s, x, row });
    rowWidths[row] = x + w;
    x += w + LEGEND_GAP;
  }
  return { items, rowWidths, height: series.length ? (row + 1) * LINE_HEIGHT : 0 };
}

function drawMarker(ctx: CanvasRenderingContext2D, shape: LineSeries['marker'], x: number, y: number, r: number): void {
  if (shape === 'none' || shape === undefined) return;
  ctx.beginPath();
  if (shape === 'triangle') {
    ctx.moveTo(x, y - r * 1.2);
    ctx.lineTo(x + r * 1.1, y + r * 0.8);
    ctx.lineTo(x - r * 1.1, y + r * 0.8);
    ctx.closePath();
  } else {
    ctx.arc(x, y, r, 0, 2 * Math.PI);
  }
  ctx.fill();
}

const finite = (p: LinePoint): p is { x: number; y: number } => p.y !== null && Number.isFinite(p.y) && Number.isFinite(p.x);

export class LineChart {
  readonly canvas: HTMLCanvasElement;
  readonly #options: LineChartOptions;
  readonly #draw: DeferredDraw;
  readonly #readout: HTMLDivElement;
  #data: LineChartData = { series: [] };
  /** the last drawn plot and the x values under it (pixels ascending), for the pointer */
  #frame: PlotFrame | null = null;
  #hoverXs: { x: number; px: number }[] = [];
  /** x value under the pointer, or null */
  #hover: number | null = null;
  readonly #onPointer = (e: PointerEvent) => this.#pointAt(e);
  readonly #onLeave = () => this.#setHover(null);

  /** `host` sets the chart's size and must be positioned (the readout is placed inside it). */
  constructor(host: HTMLElement, options: LineChartOptions) {
    this.#options = options;
    this.canvas = chartCanvas(host, options.label);
    this.#readout = document.createElement('div');
    this.#readout.setAttribute('aria-hidden', 'true');
    Object.assign(this.#readout.style, {
      position: 'absolute',
      display: 'none',
      pointerEvents: 'none',
      whiteSpace: 'pre',
      font: CHART_FONT,
      lineHeight: '1.35',
      color: '#0f172a',
      background: 'rgba(255, 255, 255, 0.93)',
      border: '1px solid #cbd5e1',
      borderRadius: '3px',
      padding: '2px 5px',
      maxWidth: 'calc(100% - 8px)',
      overflow: 'hidden',
    } satisfies Partial<CSSStyleDeclaration>);
    host.append(this.#readout);
    this.canvas.addEventListener('pointermove', this.#onPointer);
    this.canvas.addEventListener('pointerdown', this.#onPointer);
    this.canvas.addEventListener('pointerleave', this.#onLeave);
    this.#draw = new DeferredDraw(this.canvas, (ctx, w, h) => this.#paint(ctx, w, h));
  }

  update(data: LineChartData): void {
    this.#data = data;
    if (this.#hover !== null) this.#showReadout();
    this.#draw.request();
  }

  /** Redraws with the same data (an overlay's own state changed). */
  redraw(): void {
    this.#draw.request();
  }

  /** The canvas, drawn now if its first draw was still waiting (PNG export). */
  ensure(): HTMLCanvasElement {
    this.#draw.ensure();
    return this.canvas;
  }

  destroy(): void {
    this.#draw.destroy();
    this.canvas.removeEventListener('pointermove', this.#onPointer);
    this.canvas.removeEventListener('pointerdown', this.#onPointer);
    this.canvas.removeEventListener('pointerleave', this.#onLeave);
  }

  #tickY(v: number, step: number): string {
    return this.#options.y.format?.(v) ?? formatTick(v, step);
  }

  #readoutY(v: number): string {
    return this.#options.y.readout?.(v) ?? String(Number(v.toPrecision(READOUT_DIGITS)));
  }

  #formatX(v: number): string {
    const x = this.#options.x;
    if (x.kind === 'category') return this.#data.categories?.[v] ?? String(v);
    return String(Number(v.toPrecision(6)));
  }

  #paint(ctx: CanvasRenderingContext2D, width: number, height: number): void {
    const { x: xOpt, y: yOpt } = this.#options;
    const series = this.#data.series;
    const points = series.flatMap((s) => s.points.filter(finite));
    ctx.font = CHART_FONT;
    ctx.lineCap = 'butt';

    // vertical layout, bottom up: legend, x title, x tick labels
    const legend: LegendLayout = this.#options.legend ? layoutLegend(ctx, series, width - 8) : { items: [], rowWidths: [], height: 0 };
    let bottom = height - 2 - legend.height - (legend.height ? 4 : 0);
    const xTitleY = bottom - LINE_HEIGHT / 2;
    if (xOpt.title) bottom -= LINE_HEIGHT;
    const xTickY = bottom - LINE_HEIGHT / 2;
    bottom -= LINE_HEIGHT + TICK_LENGTH;
    const top = 8;

    // y axis from the data (or fixed), then the left margin from its widest tick label
    const ys = points.map((p) => p.y);
    const yAxis = niceAxis(
      ys.length ? Math.min(...ys) : (yOpt.min ?? 0),
      ys.length ? Math.max(...ys) : (yOpt.max ?? (yOpt.min ?? 0) + 1),
      Math.max(2, Math.floor((bottom - top) / 36)),
      { min: yOpt.min, max: yOpt.max },
    );
    const yLabels = yAxis.ticks.map((v) => this.#tickY(v, yAxis.step));
    const yTitleWidth = yOpt.title ? LINE_HEIGHT : 0;
    const left = 4 + yTitleWidth + Math.max(0, ...yLabels.map((l) => ctx.measureText(l).width)) + TICK_LENGTH + 3;

    // x axis
    const categories = this.#data.categories ?? [];
    let xTicks: number[];
    let xLabels: string[];
    let right = width - 10;
    let xScale: Scale;
    if (xOpt.kind === 'category') {
      const n = Math.max(1, categories.length);
      const band = (right - left) / n;
      xScale = (i) => left + (i + 0.5) * band;
      xTicks = categories.map((_, i) => i);
      xLabels = [...categories];
    } else if (xOpt.kind === 'log') {
      xTicks = [...(xOpt.ticks ?? logTicks(xOpt.min, xOpt.max))];
      xLabels = xTicks.map((v) => String(v));
      right -= ctx.measureText(xLabels.at(-1) ?? '').width / 2;
      xScale = logScale(xOpt.min, xOpt.max, left, right);
    } else {
      const xs = points.map((p) => p.x);
      const maxTicks = Math.max(2, Math.floor((right - left) / 60));
      const lo = xs.length ? Math.min(...xs) : (xOpt.min ?? 0);
      const hi = xs.length ? Math.max(...xs) : lo;
      const axis = niceAxis(lo, hi, maxTicks, { min: xOpt.min, max: xOpt.max, integerStep: xOpt.integerStep });
      xTicks = axis.ticks;
      xLabels = xTicks.map((v) => formatTick(v, axis.step));
      right -= ctx.measureText(xLabels.at(-1) ?? '').width / 2;
      xScale = linearScale(axis.min, axis.max, left, right);
    }
    const yScale = linearScale(yAxis.min, yAxis.max, bottom, top);
    const frame: PlotFrame = { left, top, right, bottom, x: xScale, y: yScale };
    this.#frame = frame;

    // grid and y ticks
    ctx.strokeStyle = CHART_INK.grid;
    ctx.lineWidth = 1;
    ctx.fillStyle = CHART_INK.text;
    ctx.textAlign = 'right';
    ctx.textBaseline = 'middle';
    yAxis.ticks.forEach((v, i) => {
      const py = Math.round(yScale(v)) + 0.5;
      ctx.beginPath();
      ctx.moveTo(left, py);
      ctx.lineTo(right, py);
      ctx.stroke();
      ctx.fillText(yLabels[i], left - TICK_LENGTH - 3, py);
    });

    // axis lines and x ticks (labels thinned so that none overlap on a narrow screen)
    ctx.strokeStyle = CHART_INK.axis;
    ctx.beginPath();
    ctx.moveTo(left + 0.5, top);
    ctx.lineTo(left + 0.5, bottom + 0.5);
    ctx.lineTo(right, bottom + 0.5);
    ctx.stroke();
    const centers = xTicks.map((v) => xScale(v));
    const shown = labelsThatFit(centers, xLabels.map((l) => ctx.measureText(l).width), 6);
    ctx.textAlign = 'center';
    ctx.beginPath();
    for (const i of shown) {
      const px = Math.round(centers[i]) + 0.5;
      ctx.moveTo(px, bottom);
      ctx.lineTo(px, bottom + TICK_LENGTH);
      ctx.fillText(xLabels[i], centers[i], xTickY);
    }
    ctx.stroke();

    // axis titles
    ctx.font = CHART_TITLE_FONT;
    ctx.fillStyle = CHART_INK.title;
    if (xOpt.title) ctx.fillText(xOpt.title, (left + right) / 2, xTitleY);
    if (yOpt.title) {
      ctx.save();
      ctx.translate(4 + LINE_HEIGHT / 2, (top + bottom) / 2);
      ctx.rotate(-Math.PI / 2);
      ctx.fillText(yOpt.title, 0, 0);
      ctx.restore();
    }

    // series, clipped to the plot
    ctx.save();
    ctx.beginPath();
    ctx.rect(left, top - 6, right - left + 6, bottom - top + 12);
    ctx.clip();
    ctx.lineJoin = 'round';
    for (const s of series) {
      const drawn = s.points.filter(finite);
      ctx.strokeStyle = s.color;
      ctx.fillStyle = s.color;
      ctx.lineWidth = s.width ?? 1.5;
      ctx.setLineDash([...(s.dash ?? [])]);
      ctx.beginPath();
      drawn.forEach((p, i) => (i === 0 ? ctx.moveTo(xScale(p.x), yScale(p.y)) : ctx.lineTo(xScale(p.x), yScale(p.y))));
      ctx.stroke();
      ctx.setLineDash([]);
      for (const p of drawn) drawMarker(ctx, s.marker, xScale(p.x), yScale(p.y), s.markerRadius ?? 3);
    }
    ctx.restore();

    this.#options.overlay?.(ctx, frame);

    // the pointer's x: a guide line and its points ringed
    const xs = new Map<number, number>();
    for (const p of points) xs.set(p.x, xScale(p.x));
    this.#hoverXs = [...xs].map(([x, px]) => ({ x, px })).sort((a, b) => a.px - b.px);
    if (this.#hover !== null && xs.has(this.#hover)) {
      const px = xScale(this.#hover);
      ctx.strokeStyle = '#64748b';
      ctx.lineWidth = 1;
      ctx.beginPath();
      ctx.moveTo(Math.round(px) + 0.5, top);
      ctx.lineTo(Math.round(px) + 0.5, bottom);
      ctx.stroke();
      ctx.lineWidth = 2;
      for (const s of series) {
        const p = s.points.find((q) => q.x === this.#hover);
        if (!p || !finite(p)) continue;
        ctx.strokeStyle = s.color;
        ctx.beginPath();
        ctx.arc(px, yScale(p.y), 4.5, 0, 2 * Math.PI);
        ctx.stroke();
      }
    }

    // legend: a line sample (with its dash and marker) and the label
    if (legend.height) {
      ctx.font = CHART_FONT;
      ctx.textAlign = 'left';
      ctx.textBaseline = 'middle';
      const legendTop = height - 2 - legend.height;
      for (const it of legend.items) {
        const x0 = (width - legend.rowWidths[it.row]) / 2 + it.x;
        const y0 = legendTop + (it.row + 0.5) * LINE_HEIGHT;
        ctx.strokeStyle = it.series.color;
        ctx.fillStyle = it.series.color;
        ctx.lineWidth = it.series.width ?? 1.5;
        ctx.setLineDash([...(it.series.dash ?? [])]);
        ctx.beginPath();
        ctx.moveTo(x0, y0);
        ctx.lineTo(x0 + LEGEND_SAMPLE, y0);
        ctx.stroke();
        ctx.setLineDash([]);
        drawMarker(ctx, it.series.marker, x0 + LEGEND_SAMPLE / 2, y0, Math.min(3, it.series.markerRadius ?? 3));
        ctx.fillStyle = CHART_INK.text;
        ctx.fillText(it.series.label, x0 + LEGEND_SAMPLE + 4, y0);
      }
    }
  }

  #pointAt(e: PointerEvent): void {
    const frame = this.#frame;
    if (!frame || this.#hoverXs.length === 0) return;
    const rect = this.canvas.getBoundingClientRect();
    const px = e.clientX - rect.left;
    const py = e.clientY - rect.top;
    if (px < frame.left - 8 || px > frame.right + 8 || py < frame.top - 8 || py > frame.bottom + 8) {
      this.#setHover(null);
      return;
    }
    const i = nearestIndex(
      this.#hoverXs.map((h) => h.px),
      px,
    );
    this.#setHover(i < 0 ? null : this.#hoverXs[i].x);
  }

  #setHover(x: number | null): void {
    if (x === this.#hover) return;
    this.#hover = x;
    this.#showReadout();
    this.#draw.request();
  }

  /** The values at the hovered x as text lines, in the plot corner away from the pointer. */
  #showReadout(): void {
    const box = this.#readout;
    const frame = this.#frame;
    const x = this.#hover;
    if (x === null || !frame) {
      box.style.display = 'none';
      return;
    }
    const name = this.#options.xName ?? this.#options.x.title ?? 'x';
    const lines = [`${name} ${this.#formatX(x)}`];
    for (const s of this.#data.series) {
      const p = s.points.find((q) => q.x === x);
      if (p && finite(p)) lines.push(`${s.label}: ${this.#readoutY(p.y)}`);
    }
    box.textContent = lines.join('\n');
    box.style.display = 'block';
    box.style.top = `${frame.top + this.canvas.offsetTop}px`;
    const onRight = frame.x(x) > (frame.left + frame.right) / 2;
    const canvasLeft = this.canvas.offsetLeft;
    if (onRight) {
      box.style.left = `${canvasLeft + frame.left + 4}px`;
      box.style.right = '';
    } else {
      box.style.left = '';
      box.style.right = `${4}px`;
    }
  }
}
