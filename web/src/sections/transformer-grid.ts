// §4's attention grids: for one kind of attention (encoder self, decoder causal self, cross), a
// layer × head grid of small heatmaps, every one on the same colour scale (weights 0 … 1, the
// section's one legend), each a button that enlarges its map into the full heatmap below the
// grids (labelled axes, values on hover and focus, export). Thumbnails paint one canvas pixel per
// weight, scaled up by CSS without smoothing.
import { rampColor } from '../heatmap/heatmap';
import { fill } from '../i18n';
import { el } from './dom';
import type { AttentionKind, AttentionMatrix, KindMaps } from './transformer-maps';

type T = (key: string) => string;

/** Paints `m` into `canvas`, one pixel per weight, on the shared scale [0, 1]. */
export function paintThumbnail(canvas: HTMLCanvasElement, m: AttentionMatrix): void {
  canvas.width = Math.max(1, m.cols);
  canvas.height = Math.max(1, m.rows);
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
  for (let r = 0; r < m.rows; r++) {
    for (let c = 0; c < m.cols; c++) {
      ctx.fillStyle = rampColor(m.values[r * m.cols + c]);
      ctx.fillRect(c, r, 1, 1);
    }
  }
}

export class AttentionGrid {
  readonly element: HTMLElement;
  readonly #t: T;
  readonly #kind: AttentionKind;
  readonly #grid = el('div', 'tf-grid');
  readonly #empty = el('p', 'tf-note tf-grid-empty');
  readonly #onPick: (kind: AttentionKind, layer: number, head: number) => void;
  #buttons: HTMLButtonElement[][] = [];
  #shape = '';

  constructor(host: HTMLElement, t: T, kind: AttentionKind, onPick: (kind: AttentionKind, layer: number, head: number) => void) {
    this.#t = t;
    this.#kind = kind;
    this.#onPick = onPick;
    this.element = el('figure', 'tf-grid-figure');
    this.element.dataset.kind = kind;
    this.element.dataset.testid = `tf-grid-${kind}`;
    const cap = el('figcaption');
    cap.append(el('strong', undefined, t(`tf.kind.${kind}`)), el('span', 'tf-note', ` ${t(`tf.kind.${kind}.shape`)}`));
    this.#empty.textContent = t('tf.grid.empty');
    const scroll = el('div', 'tf-grid-scroll');
    scroll.append(this.#grid);
    this.element.append(cap, this.#empty, scroll);
    host.append(this.element);
  }

  /** Draws every layer's and head's map; `selected`: the enlarged one's [layer, head] (1-based), if of this kind. */
  update(maps: KindMaps | null, selected: [number, number] | null): void {
    const ready = maps !== null && maps.maps.length > 0 && maps.maps[0][0].rows > 0;
    this.#empty.hidden = ready;
    this.#grid.hidden = !ready;
    this.element.dataset.drawn = ready ? '1' : '0';
    if (!ready || !maps) return;
    const shape = `${maps.layers}x${maps.heads}`;
    if (shape !== this.#shape) this.#build(maps.layers, maps.heads);
    maps.maps.forEach((row, l) =>
      row.forEach((m, h) => {
        const b = this.#buttons[l][h];
        const canvas = b.firstElementChild as HTMLCanvasElement;
        paintThumbnail(canvas, m);
        b.setAttribute('aria-pressed', String(selected !== null && selected[0] === l + 1 && selected[1] === h + 1));
        b.dataset.shape = `${m.rows},${m.cols}`;
      }),
    );
    this.element.dataset.layers = String(maps.layers);
    this.element.dataset.heads = String(maps.heads);
  }

  #build(layers: number, heads: number): void {
    const t = this.#t;
    this.#shape = `${layers}x${heads}`;
    this.#grid.style.gridTemplateColumns = `auto repeat(${heads}, minmax(1.6rem, 3.5rem))`;
    const cells: HTMLElement[] = [el('span', 'tf-grid-corner')];
    for (let h = 1; h <= heads; h++) cells.push(el('span', 'tf-grid-head', fill(t('tf.grid.head'), { h })));
    this.#buttons = [];
    for (let l = 1; l <= layers; l++) {
      cells.push(el('span', 'tf-grid-layer', fill(t('tf.grid.layer'), { l })));
      const row: HTMLButtonElement[] = [];
      for (let h = 1; h <= heads; h++) {
        const b = el('button', 'tf-thumb');
        b.type = 'button';
        b.dataset.layer = String(l);
        b.dataset.head = String(h);
        b.dataset.testid = 'tf-thumb';
        b.setAttribute('aria-label', fill(t('tf.grid.enlarge'), { kind: t(`tf.kind.${this.#kind}`), l, h }));
        b.title = b.getAttribute('aria-label') ?? '';
        b.append(el('canvas'));
        b.addEventListener('click', () => this.#onPick(this.#kind, l, h));
        row.push(b);
        cells.push(b);
      }
      this.#buttons.push(row);
    }
    this.#grid.replaceChildren(...cells);
  }
}
