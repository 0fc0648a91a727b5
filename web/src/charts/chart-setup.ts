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
import { canvasColor } from './deferred-chart';
import { linearTickLabel } from './tick-label';

Chart.register(BarController, BarElement, LineController, LineElement, PointElement, CategoryScale, LinearScale, Decimation);
// Linear axes label their ticks without Intl (tick-label.ts); an axis with its own callback keeps it.
Chart.defaults.scales.linear.ticks.callback = (value, _index, ticks) => linearTickLabel(Number(value), ticks);
Chart.defaults.font.family = "system-ui, -apple-system, 'Segoe UI', 'Noto Sans CJK SC', 'PingFang SC', 'Microsoft YaHei', sans-serif";
// Every colour Chart.js draws text and lines with is the chart's own canvas's (canvasColor: the
// tokens where the canvas is in a dark scope, the article in dark mode or a dark widget on any
// page), read when a chart resolves its options: a dark widget on a light page draws dark, and its
// exports (chart-export.ts) read the same colours. The global colour and border colour feed what
// the scales do not set themselves; ticks, grid lines, the axis line and the axis titles are set
// here too, so no default of Chart.js's own shows through.
type Scriptable = (ctx: { chart: { canvas: HTMLCanvasElement } }) => string;
const ink: Scriptable = (ctx) => canvasColor(ctx.chart.canvas, '--lab-ink-soft', '#334155');
const line: Scriptable = (ctx) => canvasColor(ctx.chart.canvas, '--lab-line', 'rgba(0,0,0,0.1)');
// (the typings say a colour, but Chart.js resolves a function here as a scriptable option)
const globals = Chart.defaults as unknown as { color: Scriptable; borderColor: Scriptable };
globals.color = ink;
globals.borderColor = line;
Chart.defaults.scale.ticks.color = ink;
Chart.defaults.scale.grid.color = line;
// (the axis line and title of the cartesian scales the charts use; the shared scale type has neither)
const cartesian = Chart.defaults.scale as unknown as { border: { color: Scriptable }; title: { color: Scriptable } };
cartesian.border.color = line;
cartesian.title.color = ink;

export { Chart };
