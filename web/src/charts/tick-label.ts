// The label of a linear axis's tick, as Chart.js's own numeric formatter writes it (enough decimals
// for the step between ticks; scientific notation when every tick is below 1e-4 or above 1e15), but
// without Intl and without grouping, like the log axes' labels (log-axis.ts). Chart.js formats
// through Intl.NumberFormat: building the first one loads the locale's data, 10–30 ms inside a
// chart's first draw, on the main thread, often while training starts.

/** The step whose decimals the label shows: Chart.js's calculateDelta. */
function tickStep(value: number, ticks: readonly { value: number }[]): number {
  let step = ticks.length > 3 ? ticks[2].value - ticks[1].value : ticks[1].value - ticks[0].value;
  if (Math.abs(step) >= 1 && value !== Math.floor(value)) step = value - Math.floor(value);
  return step;
}

/** The label of tick `value` among `ticks` (the axis's, in order). */
export function linearTickLabel(value: number, ticks: readonly { value: number }[]): string {
  if (value === 0) return '0';
  if (!Number.isFinite(value)) return String(value);
  let step = value;
  let scientific = false;
  if (ticks.length > 1) {
    const largest = Math.max(Math.abs(ticks[0].value), Math.abs(ticks[ticks.length - 1].value));
    scientific = largest < 1e-4 || largest > 1e15;
    step = tickStep(value, ticks);
  }
  const log = Math.log10(Math.abs(step));
  const decimals = Number.isNaN(log) ? 1 : Math.max(Math.min(-Math.floor(log), 20), 0);
  if (scientific) return value.toExponential(Math.min(decimals, 20)).replace('e+', 'E').replace('e-', 'E-');
  return value.toFixed(decimals);
}
