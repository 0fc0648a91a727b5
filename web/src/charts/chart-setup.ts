// Chart.js, with only the parts the app's charts use registered (the rest is tree-shaken away): line
// and bar charts on linear and category scales (a log axis is a linear one over log10:
// log-axis.ts), and decimation (long training runs). The hover readout and the legend are the
// project's own HTML (chart-readout.ts, chart-legend.ts): Chart.js's Tooltip and Legend plugins
// would add about 8 KB gzip to every page with a chart. (Exported pictures draw their title
// themselves.) Loaded on demand by deferred-chart.ts, never by the heatmap: a page of heatmaps
// alone does not download it.
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Decimation,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
} from 'chart.js';
import { canvasColor, pageColor } from './deferred-chart';
import { linearTickLabel } from './tick-label';

Chart.register(BarController, BarElement, LineController, LineElement, PointElement, CategoryScale, LinearScale, Decimation);
// Linear axes label their ticks without Intl (tick-label.ts); an axis with its own callback keeps it.
Chart.defaults.scales.linear.ticks.callback = (value, _index, ticks) => linearTickLabel(Number(value), ticks);
Chart.defaults.font.family = "system-ui, -apple-system, 'Segoe UI', 'Noto Sans CJK SC', 'PingFang SC', 'Microsoft YaHei', sans-serif";
// Text and grid lines in the page's colours (pageColor: the tokens in dark mode on the app's own
// pages), read when a chart resolves its options, i.e. when it is built in view.
Object.defineProperty(Chart.defaults, 'color', { get: () => pageColor('--lab-ink-soft', '#334155'), set: () => {}, configurable: true });
Object.defineProperty(Chart.defaults, 'borderColor', { get: () => pageColor('--lab-line', 'rgba(0,0,0,0.1)'), set: () => {}, configurable: true });
// Ticks and grid lines take the colours of the chart's own box: a dark widget on a light page is dark.
Chart.defaults.scale.ticks.color = (ctx) => canvasColor(ctx.chart.canvas, '--lab-ink-soft', '#334155');
Chart.defaults.scale.grid.color = (ctx) => canvasColor(ctx.chart.canvas, '--lab-line', 'rgba(0,0,0,0.1)');
// (the axis titles of the cartesian scales this page uses; the shared scale type lacks `title`)
(Chart.defaults.scale as { title: { color: unknown } }).title.color = (ctx: { chart: { canvas: HTMLCanvasElement } }) => canvasColor(ctx.chart.canvas, '--lab-ink-soft', '#334155');

export { Chart };
