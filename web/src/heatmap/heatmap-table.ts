// A heatmap's numbers as a <table> for screen readers: caption (the figure's title), the column
// labels as column headers, each row's label as its row header, the values with the digits the cells
// show. Visually hidden (heatmap.css; the canvas shows the same numbers).
import { formatValue } from './heatmap-paint';

const cell = (tag: 'th' | 'td', text: string, scope = '', lang = ''): HTMLElement =>
  Object.assign(document.createElement(tag), { textContent: text }, scope && { scope }, lang && { lang });

/** The table of a matrix (row-major); `corner`: what the cell above the row labels says. */
export function heatmapTable(
  caption: string,
  data: { cols: number; values: readonly number[]; rowLabels: readonly string[]; colLabels: readonly string[]; rowLang?: string; colLang?: string },
  digits: number,
  corner: string,
): HTMLTableElement {
  const table = document.createElement('table');
  table.className = 'heatmap-table';
  table.createCaption().textContent = caption;
  table.createTHead().insertRow().append(cell('td', corner), ...data.colLabels.map((label) => cell('th', label, 'col', data.colLang)));
  const body = table.createTBody();
  data.rowLabels.forEach((label, r) => body.insertRow().append(cell('th', label, 'row', data.rowLang), ...data.values.slice(r * data.cols, (r + 1) * data.cols).map((v) => cell('td', formatValue(v, digits)))));
  return table;
}
