// What a sideways-scrolling heatmap (heatmap.ts) has out of view, and buttons that scroll to it:
// "← N" and "+N columns →", each with a label that says which columns are shown; the frame's cut
// edges fade (CSS, data-cut). Hidden while every column fits.
import type { Translate } from '../figure-strings';
import { visibleColumns, type HeatmapLayout } from './heatmap-paint';
import { fill } from '../i18n';
import { markCutEdges } from '../cut-edges';

export class ColumnScroller {
  readonly element: HTMLElement;
  readonly #frame: HTMLElement;
  readonly #box: HTMLElement;
  readonly #t: () => Translate;
  readonly #left: HTMLButtonElement;
  readonly #right: HTMLButtonElement;
  #layout: HeatmapLayout | null = null;

  /** `frame` holds the scrolling `box`; `t` gives the figure's strings in its language. */
  constructor(frame: HTMLElement, box: HTMLElement, t: () => Translate) {
    this.#frame = frame;
    this.#box = box;
    this.#t = t;
    this.element = document.createElement('div');
    this.element.className = 'heatmap-more';
    this.element.dataset.moreColumns = ''; // what the layout test (tests/e2e/layout.test.mjs) looks for
    this.element.hidden = true;
    this.#left = this.#button('left', -1);
    this.#right = this.#button('right', 1);
    this.element.append(this.#left, this.#right);
  }

  #button(side: 'left' | 'right', dir: -1 | 1): HTMLButtonElement {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = `lab-button heatmap-more-${side}`;
    button.addEventListener('click', () => this.#page(dir));
    return button;
  }

  /** Scrolls a page of columns left (-1) or right (1), keeping one column of overlap. */
  #page(dir: -1 | 1): void {
    const layout = this.#layout;
    if (!layout) return;
    const step = Math.max(layout.colWidth, this.#box.clientWidth - layout.left - layout.colWidth);
    const reduced = typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
    this.#box.scrollBy({ left: dir * step, behavior: reduced ? 'auto' : 'smooth' });
  }

  /** After a draw: how many columns are out of view on each side, or nothing when all fit. */
  update(layout: HeatmapLayout | null): void {
    this.#layout = layout;
    const box = this.#box;
    if (!layout) {
      this.element.hidden = true;
      delete this.#frame.dataset.cut;
      return;
    }
    const [first, end] = visibleColumns(layout, box.scrollLeft, box.clientWidth);
    const before = first;
    const after = layout.cols - end;
    const t = this.#t();
    this.element.hidden = before === 0 && after === 0;
    markCutEdges(this.#frame, before > 0, after > 0);
    this.#left.hidden = before === 0;
    this.#right.hidden = after === 0;
    // each name starts with the button's visible text (what a speech-input user says to press it)
    this.#left.textContent = fill(t('heatmap.more.left'), { n: before });
    this.#left.setAttribute('aria-label', fill(t('heatmap.more.left.aria'), { text: this.#left.textContent, n: before }));
    this.#right.textContent = after === 1 ? t('heatmap.more.right.one') : fill(t('heatmap.more.right'), { n: after });
    this.#right.setAttribute('aria-label', fill(t('heatmap.more.right.aria'), { text: this.#right.textContent, n: after, from: first + 1, to: end, cols: layout.cols }));
    this.element.dataset.hiddenColumns = `${before},${after}`;
  }
}
