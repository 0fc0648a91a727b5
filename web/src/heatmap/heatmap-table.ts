// A heatmap's numbers as a <table> for screen readers: caption (the figure's title), the column
// labels as column headers, each row's label as its row header, the values with the digits the cells
// show. Visually hidden (the canvas shows the same numbers); rebuilt only when the shape or a label
// changes, otherwise its cells' text is replaced in place.
import { formatValue } from './heatmap-paint';

export class HeatmapTable {
  readonly element: HTMLTableElement;
  readonly #caption: HTMLTableCaptionElement;
  #cells: HTMLTableCellElement[] = [];
  #labels = '';

  constructor() {
    this.element = document.createElement('table');
    this.element.className = 'heatmap-table';
    this.#caption = this.element.createCaption();
  }

  set caption(text: string) {
    this.#caption.textContent = text;
  }

  /** The matrix (row-major); `corner`: what the header cell above the row labels says. */
  update(data: { rows: number; cols: number; values: readonly number[]; rowLabels: readonly string[]; colLabels: readonly string[] }, digits: number, corner: string): void {
    const labels = JSON.stringify([data.rowLabels, data.colLabels, corner]);
    if (labels !== this.#labels) {
      this.#labels = labels;
      const head = document.createElement('thead');
      const headRow = head.insertRow();
      const cornerCell = document.createElement('td');
      cornerCell.textContent = corner;
      headRow.append(cornerCell);
      for (const label of data.colLabels) {
        const th = document.createElement('th');
        th.scope = 'col';
        th.textContent = label;
        headRow.append(th);
      }
      const body = document.createElement('tbody');
      this.#cells = [];
      data.rowLabels.forEach((label) => {
        const tr = body.insertRow();
        const th = document.createElement('th');
        th.scope = 'row';
        th.textContent = label;
        tr.append(th);
        for (let c = 0; c < data.cols; c++) this.#cells.push(tr.insertCell());
      });
      this.element.replaceChildren(this.#caption, head, body);
    }
    this.#cells.forEach((td, i) => (td.textContent = formatValue(data.values[i], digits)));
  }
}
