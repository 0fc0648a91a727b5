// The heatmap's tooltip: a text-only box inside the figure, above the hovered or focused cell and its
// neighbours (below them when there is no room above or it would cover the column labels, which the
// reader reads the cell by), kept within the figure's width: the cells next to the one under the
// pointer stay in sight, as the reader's eye goes on to them. Screen readers get the same text from
// the figure's focus line, so the box itself is hidden from them.

/** A cell's box in the coordinates of the tooltip's positioned parent (the figure's padding box). */
export interface AnchorBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** space between the cell and the box */
const OFFSET = 6;

export class HeatmapTooltip {
  readonly element: HTMLElement;
  readonly #title: HTMLElement;
  readonly #value: HTMLElement;

  constructor() {
    this.element = document.createElement('div');
    this.element.className = 'heatmap-tooltip';
    this.element.setAttribute('aria-hidden', 'true');
    this.element.hidden = true;
    this.#title = document.createElement('strong');
    this.#value = document.createElement('span');
    this.element.append(this.#title, this.#value);
  }

  /**
   * Shows title and value centred over `anchor`, clear of `neighbours` (the box of the anchor's
   * cell and the cells around it) and of the column labels above `cellsTop`, inside a parent
   * `parentWidth` pixels wide.
   */
  show(title: string, value: string, anchor: AnchorBox, neighbours: AnchorBox, parentWidth: number, cellsTop: number): void {
    this.#title.textContent = title;
    this.#value.textContent = value;
    const box = this.element;
    box.hidden = false;
    const { offsetWidth: w, offsetHeight: h } = box;
    const x = Math.max(0, Math.min(parentWidth - w, anchor.x + anchor.width / 2 - w / 2));
    const above = neighbours.y - h - OFFSET;
    const y = above >= cellsTop ? above : neighbours.y + neighbours.height + OFFSET;
    box.style.transform = `translate(${Math.round(x)}px, ${Math.round(y)}px)`;
  }

  hide(): void {
    this.element.hidden = true;
  }
}
