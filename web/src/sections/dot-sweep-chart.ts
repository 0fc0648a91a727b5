// The saturation chart of §3.2: max weight, entropy and softmax-Jacobian norm against the feature
// size d (log axis 1 … 1024, ticks at the computed powers of two; entropy on a right-hand axis), unscaled (dashed) and scaled
// (solid), with a vertical marker at the slider's d. Chart.js (line-chart.ts). Each metric has its
// own marker as well as its colour, so the series stay apart for a reader who cannot tell the
// colours apart (orange and green under protanopia). Its export menu goes under it: the picture, and
// every metric at every d.
import { chartPictures, seriesColor, type ChartOverlay } from '../charts/deferred-chart';
import { LineChart, type LineSeries, type PlotFrame } from '../charts/line-chart';
import { Figure } from '../figure';
import { MAX_SWEEP_D, SWEEP_GRID, type SoftmaxMetrics, type SweepPoint } from './dot-sweep';
import { fill } from '../i18n';

// Max weight (0–1) and the gradient size (at most about 0.5) share the left axis; entropy, in nats
// up to ln 8 ≈ 2.08, has its own on the right, so that no quantity is read against another's unit.
const METRICS: readonly { key: keyof SoftmaxMetrics; label: string; color: string; marker: 'circle' | 'triangle' | 'rect'; axis: 'y' | 'y2' }[] = [
  { key: 'maxWeight', label: 'dot.metric.maxWeight', color: '#1d4ed8', marker: 'circle', axis: 'y' },
  { key: 'entropy', label: 'dot.metric.entropy', color: '#c2410c', marker: 'triangle', axis: 'y2' },
  { key: 'jacobian', label: 'dot.metric.jacobian', color: '#15803d', marker: 'rect', axis: 'y' },
];
const VARIANTS = ['unscaled', 'scaled'] as const;
const MARKER_INK = '#0f172a';

export class SweepChart extends Figure<readonly SweepPoint[]> {
  readonly #chart: LineChart;
  readonly #t: (key: string) => string;
  #marker = 1;
  /** the points drawn: what the exports hold */
  #points: readonly SweepPoint[] = [];

  constructor(host: HTMLElement, t: (key: string) => string) {
    super({
      title: t('dot.sweep.chartLabel'),
      t,
      // a menu button named "Export" alone, under the sweep's heading
      label: null,
      fileName: 'dot-sweep',
      exports: {
        ...chartPictures(() => this.#chart.built()),
        table: () => ({
          rowLabels: this.#points.map((p) => String(p.d)),
          colLabels: METRICS.flatMap(({ key }) => VARIANTS.map((v) => `${key}_${v}`)),
          values: this.#points.flatMap((p) => METRICS.flatMap(({ key }) => VARIANTS.map((v) => p[v][key]))),
        }),
        json: () => this.#points.map(({ d, unscaled, scaled }) => ({ d, unscaled, scaled })),
      },
    });
    this.#t = t;
    const box = document.createElement('div');
    box.className = 'dot-sweep-chart';
    host.append(box);
    this.#chart = new LineChart(box, {
      label: t('dot.sweep.chartLabel'),
      x: { kind: 'log', min: SWEEP_GRID[0], max: MAX_SWEEP_D, ticks: SWEEP_GRID, title: t('dot.sweep.axis.d') },
      // a list, not a product: the axis carries both measures
      y: { min: 0, max: 1, title: METRICS.filter((m) => m.axis === 'y').map((m) => t(m.label)).join(t('field.separator')) },
      y2: { min: 0, title: t('dot.metric.entropy') },
      legend: true,
      xName: 'd =',
      overlay: (ctx, frame) => this.#drawMarker(ctx, frame),
    });
    host.append(this.menu!);
  }

  update(points: readonly SweepPoint[]): void {
    this.#points = points;
    const t = this.#t;
    const series: LineSeries[] = METRICS.flatMap((metric) =>
      VARIANTS.map((variant) => ({
        label: fill(t('label.paren'), { a: t(metric.label), b: t(`dot.variant.${variant}`) }),
        color: metric.color,
        points: points.map((p) => ({ x: p.d, y: p[variant][metric.key] })),
        dash: variant === 'unscaled' ? [6, 4] : undefined,
        marker: metric.marker,
        markerRadius: 3,
        width: 2,
        axis: metric.axis,
      })),
    );
    this.#chart.update({ series });
  }

  set marker(d: number) {
    this.#marker = d;
    this.#chart.redraw();
  }

  destroy(): void {
    this.#chart.destroy();
  }

  /** A vertical line at the slider's d, labelled on the side with more room; returns what it drew. */
  #drawMarker(ctx: CanvasRenderingContext2D, { left, right, top, bottom, x: scale }: PlotFrame): ChartOverlay[] {
    const x = scale(this.#marker);
    if (!(x >= left && x <= right)) return [];
    const ink = seriesColor(ctx.canvas, MARKER_INK); // light on a dark canvas
    ctx.save();
    ctx.strokeStyle = ink;
    ctx.lineWidth = 1.5;
    ctx.setLineDash([2, 3]);
    ctx.beginPath();
    ctx.moveTo(x, top);
    ctx.lineTo(x, bottom);
    ctx.stroke();
    ctx.fillStyle = ink;
    ctx.font = '12px system-ui, sans-serif';
    ctx.textBaseline = 'alphabetic';
    ctx.textAlign = x > (left + right) / 2 ? 'right' : 'left';
    const align = ctx.textAlign === 'right' ? 'right' : 'left';
    const label = { x: x + (align === 'right' ? -4 : 4), y: top + 12, text: `d = ${this.#marker}` };
    ctx.fillText(label.text, label.x, label.y);
    ctx.restore();
    return [
      { kind: 'line', x1: x, y1: top, x2: x, y2: bottom, color: MARKER_INK, dash: [2, 3] },
      { kind: 'text', ...label, y: label.y - 4, color: MARKER_INK, align },
    ];
  }
}
