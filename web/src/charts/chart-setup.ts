// Chart.js, with only the parts the app's charts use registered (the rest is tree-shaken away): line
// and bar charts on linear, logarithmic and category scales, legend, tooltip (the hover readout) and
// decimation (long training runs). (Exported pictures draw their title themselves.) Loaded on demand by
// deferred-chart.ts, never by the heatmap: a page of heatmaps alone does not download it.
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Decimation,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  LogarithmicScale,
  PointElement,
  Tooltip,
} from 'chart.js';

Chart.register(BarController, BarElement, LineController, LineElement, PointElement, CategoryScale, LinearScale, LogarithmicScale, Decimation, Legend, Tooltip);
Chart.defaults.font.family = "system-ui, -apple-system, 'Segoe UI', 'Noto Sans CJK SC', 'PingFang SC', 'Microsoft YaHei', sans-serif";
Chart.defaults.color = '#334155';

export { Chart };
