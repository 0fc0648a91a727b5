// The table of an opened "Data table" disclosure (chart-readout.ts's ChartTable): caption, column
// headers, one row per x or bar with its first cell as the row's header, in a scrolling box the
// keyboard can scroll too (it takes focus) named after the chart. Text only (textContent).
import { langOfNode } from '../figure-strings';
import type { TableData } from './chart-readout';

/** the columns of a table given none (a bar chart's): in the language of the page around it */
const BAR_HEAD = { en: ['Bar', 'Value'], zh: ['条目', '数值'] };

const cell = (tag: 'th' | 'td', text: string, scope = ''): HTMLElement => Object.assign(document.createElement(tag), { textContent: text }, scope && { scope });

/** The rows of `data`: as given, or one per x any series has (x ascending), one column per series. */
function rowsOf(data: TableData): string[][] {
  if ('rows' in data) return data.rows;
  const xs = [...new Set(data.series.flatMap((s) => s.map((p) => p.x)))].sort((a, b) => a - b);
  const byX = data.series.map((s) => new Map(s.map((p) => [p.x, p.y])));
  return xs.map((x) => [data.x(x), ...byX.map((m) => {
    const y = m.get(x);
    return y === null || y === undefined || !Number.isFinite(y) ? '' : data.y(y);
  })]);
}

/** Puts the table of `data` into the disclosure `details` (or takes it out when closed). */
export function fillTable(details: HTMLDetailsElement, data: TableData): void {
  details.querySelector('.lab-chart-table-scroll')?.remove();
  if (!details.open) return;
  const table = document.createElement('table');
  table.createCaption().textContent = data.caption;
  table.createTHead().insertRow().append(...(data.head.length ? data.head : BAR_HEAD[langOfNode(details)]).map((h) => cell('th', h, 'col')));
  const body = table.createTBody();
  for (const [first, ...rest] of rowsOf(data)) body.insertRow().append(cell('th', first, 'row'), ...rest.map((text) => cell('td', text)));
  const scroll = document.createElement('div');
  scroll.className = 'lab-chart-table-scroll';
  scroll.tabIndex = 0;
  scroll.setAttribute('role', 'region');
  scroll.setAttribute('aria-label', data.caption);
  scroll.append(table);
  details.append(scroll);
}
