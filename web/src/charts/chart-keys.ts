// The keyboard's walk over a chart's points (chart-readout.ts loads it when a chart first takes the
// focus): the arrow keys step through the points left to right (bars top to bottom), every shown
// series at each one, Home and End jump to the ends, Escape leaves. Chart.js then draws the chosen
// points as hovered, and the readout shows them.
import type { ActiveElement, Chart } from 'chart.js';

/** Which stop a key moves to from `at` (-1: none yet) among `count`; null: not a walking key. */
export function stopAfterKey(key: string, at: number, count: number): number | null {
  if (count === 0) return null;
  const next = key === 'ArrowRight' || key === 'ArrowDown' ? at + 1 : key === 'ArrowLeft' || key === 'ArrowUp' ? (at < 0 ? count - 1 : at - 1) : key === 'Home' ? 0 : key === 'End' ? count - 1 : null;
  return next === null ? null : Math.max(0, Math.min(next, count - 1));
}

/** The stops of an index-mode chart: every shown series' element at each index, in order. */
function stops(chart: Chart): ActiveElement[][] {
  const metas = chart.data.datasets.map((_, i) => chart.getDatasetMeta(i)).filter((m) => !m.hidden);
  const count = Math.max(0, ...metas.map((m) => m.data.length));
  return Array.from({ length: count }, (_, index) =>
    metas.filter((m) => m.data[index]).map((m) => ({ datasetIndex: m.index, index, element: m.data[index] }) as ActiveElement),
  );
}

/** Moves the chart's chosen points by `key` from stop `at`; returns the new stop (-1: none, after Escape). */
export function walk(chart: Chart, key: string, at: number): number {
  const all = stops(chart);
  const next = key === 'Escape' ? -1 : (stopAfterKey(key, at, all.length) ?? at);
  chart.setActiveElements(next < 0 ? [] : all[next]);
  chart.update('none');
  return next;
}
