// A BertViz-style "head view": the tokens twice (queries left, keys right) with a line from each
// query to each key, as thick as its attention weight. Hovering or focusing a query token shows only
// its lines, with the weights as bars and numbers beside the keys (no bars while no word is chosen).
// Tokens are text nodes only.
import { el } from './dom';

const SVG_NS = 'http://www.w3.org/2000/svg';
/** px per token row; the CSS gives both token columns the same row height */
const ROW = 30;
const WIDTH = 140;
const MAX_STROKE = 10;

export interface HeadViewEvents {
  /** a query token was hovered or focused (-1: none) */
  onFocus(index: number): void;
}

export class HeadView {
  readonly element = el('div', 'self-headview');
  readonly #left = el('ol', 'self-headview-queries');
  readonly #right = el('ol', 'self-headview-keys');
  readonly #svg = document.createElementNS(SVG_NS, 'svg');
  readonly #events: HeadViewEvents;
  #tokens: readonly string[] = [];
  #weights: ArrayLike<number> = [];
  #focus = -1;

  constructor(events: HeadViewEvents, labels: { queries: string; keys: string }) {
    this.#events = events;
    this.#left.setAttribute('aria-label', labels.queries);
    this.#right.setAttribute('aria-label', labels.keys);
    this.#svg.setAttribute('aria-hidden', 'true');
    this.#svg.classList.add('self-headview-lines');
    this.element.append(this.#left, this.#svg, this.#right);
    this.#left.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') this.#events.onFocus(-1);
    });
  }

  /** New tokens and weights (T × T, row = query). */
  update(tokens: readonly string[], weights: ArrayLike<number>, focus: number): void {
    const retokenised = tokens.length !== this.#tokens.length || tokens.some((t, i) => t !== this.#tokens[i]);
    this.#tokens = tokens;
    this.#weights = weights;
    if (retokenised) this.#buildTokens();
    this.setFocus(focus);
  }

  setFocus(focus: number): void {
    const n = this.#tokens.length;
    this.#focus = focus >= 0 && focus < n ? focus : -1;
    this.element.dataset.focus = String(this.#focus);
    Array.from(this.#left.children).forEach((li, i) => li.classList.toggle('is-focus', i === this.#focus));
    this.#drawLines();
    Array.from(this.#right.children).forEach((li, j) => {
      const track = li.querySelector<HTMLElement>('.self-headview-track');
      const bar = li.querySelector<HTMLElement>('.self-headview-bar');
      const value = li.querySelector<HTMLElement>('.self-headview-weight');
      if (!track || !bar || !value) return;
      // no word chosen: no weights to show, so no bars (an empty track reads as a missing number)
      track.hidden = this.#focus < 0;
      if (this.#focus < 0) {
        value.textContent = '';
        delete (li as HTMLElement).dataset.weight;
      } else {
        const w = this.#weights[this.#focus * n + j];
        // the CSS keeps a sliver for a weight near 0, beside its number
        bar.style.width = `${w * 100}%`;
        value.textContent = w.toFixed(3);
        (li as HTMLElement).dataset.weight = String(w);
      }
    });
  }

  #buildTokens(): void {
    const n = this.#tokens.length;
    this.#left.replaceChildren(
      ...this.#tokens.map((token, i) => {
        const li = el('li', 'self-headview-token', token);
        li.tabIndex = 0;
        li.dataset.index = String(i);
        li.addEventListener('mouseenter', () => this.#events.onFocus(i));
        li.addEventListener('focus', () => this.#events.onFocus(i));
        // a tap chooses the word on every touch browser, focusable or not
        li.addEventListener('click', () => this.#events.onFocus(i));
        return li;
      }),
    );
    this.#right.replaceChildren(
      ...this.#tokens.map((token, j) => {
        const li = el('li', 'self-headview-token');
        li.dataset.index = String(j);
        const track = el('span', 'self-headview-track');
        track.append(el('span', 'self-headview-bar'));
        li.append(el('span', 'self-headview-word', token), track, el('span', 'self-headview-weight'));
        return li;
      }),
    );
    this.#svg.setAttribute('viewBox', `0 0 ${WIDTH} ${n * ROW}`);
    this.#svg.setAttribute('width', String(WIDTH));
    this.#svg.setAttribute('height', String(n * ROW));
  }

  #drawLines(): void {
    const n = this.#tokens.length;
    const lines: SVGLineElement[] = [];
    for (let i = 0; i < n; i++) {
      if (this.#focus >= 0 && i !== this.#focus) continue;
      for (let j = 0; j < n; j++) {
        const w = this.#weights[i * n + j];
        const line = document.createElementNS(SVG_NS, 'line');
        line.setAttribute('x1', '2');
        line.setAttribute('y1', String((i + 0.5) * ROW));
        line.setAttribute('x2', String(WIDTH - 2));
        line.setAttribute('y2', String((j + 0.5) * ROW));
        const focused = this.#focus >= 0;
        line.setAttribute('stroke-width', String(focused ? Math.max(0.5, w * MAX_STROKE) : 2));
        line.setAttribute('stroke-opacity', String(focused ? 0.85 : Math.max(0.05, w)));
        line.dataset.query = String(i);
        line.dataset.key = String(j);
        line.dataset.weight = String(w);
        lines.push(line);
      }
    }
    this.#svg.replaceChildren(...lines);
  }
}
