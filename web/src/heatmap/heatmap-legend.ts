// A heatmap's colour legend: the ramp between its two end values, each end explained in a tooltip
// and, for screen readers, in the group's label (figure strings, en and zh); when the scale is shared
// with other heatmaps, a note saying by how many.
import type { Translate } from '../figure-strings';
import { legendGradient } from './heatmap-color';
import { formatValue } from './heatmap-paint';
import { fill } from '../i18n';

export class HeatmapLegend {
  readonly element: HTMLElement;
  readonly #diverging: boolean;
  readonly #min: HTMLElement;
  readonly #max: HTMLElement;
  readonly #note: HTMLElement;

  constructor(diverging: boolean) {
    this.#diverging = diverging;
    this.element = document.createElement('div');
    this.element.className = 'legend';
    this.element.setAttribute('role', 'group');
    this.#min = document.createElement('span');
    const bar = document.createElement('span');
    bar.className = 'legend-bar';
    bar.style.backgroundImage = legendGradient(diverging);
    bar.setAttribute('aria-hidden', 'true');
    this.#max = document.createElement('span');
    this.#note = document.createElement('span');
    this.#note.className = 'legend-note';
    this.#note.hidden = true;
    this.element.append(this.#min, bar, this.#max, this.#note);
  }

  /**
   * The range [min, max]; `sharedBy`: how many heatmaps share the scale (null: this one alone), and
   * where they are (null: nothing to say).
   */
  show(min: number, max: number, t: Translate, sharedBy: number | null, where: string | null = null): void {
    const [low, high] = this.#diverging ? ['heatmap.legend.negative', 'heatmap.legend.positive'] : ['heatmap.legend.low', 'heatmap.legend.high'];
    this.#min.textContent = formatValue(min);
    this.#max.textContent = formatValue(max);
    this.#min.title = fill(t(low), { value: formatValue(min, 4) });
    this.#max.title = fill(t(high), { value: formatValue(max, 4) });
    this.element.setAttribute('aria-label', fill(t('label.pair'), { a: t('heatmap.legend.label'), b: `${this.#min.title}${t('label.sep')}${this.#max.title}` }));
    this.#note.textContent = sharedBy === null ? '' : fill(t(where ? 'heatmap.legend.sharedWhere' : 'heatmap.legend.shared'), { count: sharedBy, where: where ?? '' });
    this.#note.hidden = sharedBy === null;
  }
}
