// §4's attention grids: for one kind of attention (encoder self, decoder causal self, cross), a
// layer × head grid of small heatmaps, every one on the same colour scale (weights 0 … 1, the
// section's one legend), each a button that enlarges its map into the full heatmap below the
// grids (labelled axes, values on hover and focus, export). Thumbnails are drawn as the heatmaps
// are (deferred-draw.ts): off the task that made them, at most once a frame. The grid is one Tab
// stop (roving tabindex): the arrow keys, Home and End move between its maps.
import { DeferredDraw } from '../deferred-draw';
import { rampColor } from '../heatmap/heatmap';
import { cellAfterKey } from '../heatmap/heatmap-cells';
import { fill } from '../i18n';
import { el } from './dom';
import type { AttentionKind, AttentionMatrix, KindMaps } from './transformer-maps';

type T = (key: string) => string;

/** Paints `m` over a width × height (CSS pixels) canvas, one rectangle per weight, on the shared scale [0, 1]. */
export function paintThumbnail(ctx: CanvasRenderingContext2D, m: AttentionMatrix, width: number, height: number): void {
  const w = width / Math.max(1, m.cols);
  const h = height / Math.max(1, m.rows);
  for (let r = 0; r < m.rows; r++) {
    for (let c = 0; c < m.cols; c++) {
      ctx.fillStyle = rampColor(m.values[r * m.cols + c]);
      // whole pixels, overlapping by one, so no seam shows between cells
      ctx.fillRect(Math.floor(c * w), Math.floor(r * h), Math.ceil(w) + 1, Math.ceil(h) + 1);
    }
  }
}

/** One thumbnail: its button, the matrix it shows, and its drawing (off the caller's task, once a frame). */
interface Thumb {
  button: HTMLButtonElement;
  matrix: AttentionMatrix | null;
  drawer: DeferredDraw | null;
}

export class AttentionGrid {
  readonly element: HTMLElement;
  readonly #t: T;
  readonly #kind: AttentionKind;
  readonly #grid = el('div', 'transformer-grid');
  readonly #empty = el('p', 'transformer-note transformer-grid-empty');
  /** under a grid of 1 × 1 maps: why they are solid squares (one query, one key: weight 1) */
  readonly #single = el('p', 'transformer-note transformer-grid-single');
  readonly #onPick: (kind: AttentionKind, layer: number, head: number) => void;
  #thumbs: Thumb[][] = [];
  #shape = '';

  constructor(host: HTMLElement, t: T, kind: AttentionKind, onPick: (kind: AttentionKind, layer: number, head: number) => void) {
    this.#t = t;
    this.#kind = kind;
    this.#onPick = onPick;
    this.element = el('figure', 'transformer-grid-figure');
    this.element.dataset.kind = kind;
    this.element.dataset.testid = `transformer-grid-${kind}`;
    const cap = el('figcaption');
    cap.append(el('strong', undefined, t(`transformer.kind.${kind}`)), el('span', 'transformer-note', ` ${t(`transformer.kind.${kind}.shape`)}`));
    this.#empty.textContent = t('transformer.grid.empty');
    this.#grid.addEventListener('keydown', (e) => this.#onKey(e));
    const scroll = el('div', 'transformer-grid-scroll');
    scroll.append(this.#grid);
    this.#single.textContent = t(`transformer.grid.single.${kind}`);
    this.#single.dataset.testid = 'transformer-single-note';
    this.#single.hidden = true;
    this.element.append(cap, this.#empty, scroll, this.#single);
    host.append(this.element);
  }

  /** Draws every layer's and head's map; `selected`: the enlarged one's [layer, head] (1-based), if of this kind. */
  update(maps: KindMaps | null, selected: [number, number] | null): void {
    const ready = maps !== null && maps.maps.length > 0 && maps.maps[0][0].rows > 0;
    this.#empty.hidden = ready;
    this.#grid.hidden = !ready;
    this.element.dataset.drawn = ready ? '1' : '0';
    this.#single.hidden = !ready || maps.maps[0][0].rows !== 1 || maps.maps[0][0].cols !== 1;
    if (!ready || !maps) return;
    const shape = `${maps.layers}x${maps.heads}`;
    if (shape !== this.#shape) this.#build(maps.layers, maps.heads);
    maps.maps.forEach((row, l) =>
      row.forEach((m, h) => {
        const thumb = this.#thumbs[l][h];
        const b = thumb.button;
        thumb.matrix = m;
        if (thumb.drawer) thumb.drawer.request();
        else thumb.drawer = new DeferredDraw(b.firstElementChild as HTMLCanvasElement, (ctx, width, height) => thumb.matrix && paintThumbnail(ctx, thumb.matrix, width, height));
        const pressed = selected !== null && selected[0] === l + 1 && selected[1] === h + 1;
        b.setAttribute('aria-pressed', String(pressed));
        if (pressed) this.#rove(l, h);
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
    const cells: HTMLElement[] = [el('span', 'transformer-grid-corner')];
    for (let h = 1; h <= heads; h++) cells.push(el('span', 'transformer-grid-head', fill(t('transformer.grid.head'), { h })));
    this.destroy();
    this.#thumbs = [];
    for (let l = 1; l <= layers; l++) {
      cells.push(el('span', 'transformer-grid-layer', fill(t('transformer.grid.layer'), { l })));
      const row: Thumb[] = [];
      for (let h = 1; h <= heads; h++) {
        const b = el('button', 'transformer-thumb');
        b.type = 'button';
        b.dataset.layer = String(l);
        b.dataset.head = String(h);
        b.dataset.testid = 'transformer-thumb';
        b.setAttribute('aria-label', fill(t('transformer.grid.enlarge'), { kind: t(`transformer.kind.${this.#kind}`), l, h }));
        b.title = b.getAttribute('aria-label') ?? '';
        const canvas = el('canvas');
        canvas.setAttribute('aria-hidden', 'true');
        canvas.setAttribute('aria-label', b.title);
        b.append(canvas);
        b.tabIndex = l === 1 && h === 1 ? 0 : -1;
        b.addEventListener('click', () => {
          this.#rove(l - 1, h - 1);
          this.#onPick(this.#kind, l, h);
        });
        row.push({ button: b, matrix: null, drawer: null });
        cells.push(b);
      }
      this.#thumbs.push(row);
    }
    this.#grid.replaceChildren(...cells);
  }

  /** Makes map (layer, head) (0-based) the grid's one Tab stop. */
  #rove(layer: number, head: number): HTMLButtonElement | undefined {
    this.#thumbs.forEach((row, l) => row.forEach((thumb, h) => (thumb.button.tabIndex = l === layer && h === head ? 0 : -1)));
    return this.#thumbs[layer]?.[head]?.button;
  }

  /** Arrow keys move between the maps (left/right: heads, up/down: layers), Home and End to a row's ends. */
  #onKey(e: KeyboardEvent): void {
    const target = e.target as HTMLElement;
    const to = cellAfterKey(e.key, { row: Number(target.dataset.layer) - 1, col: Number(target.dataset.head) - 1 }, this.#thumbs.length, this.#thumbs[0]?.length ?? 0);
    if (!to || !target.classList.contains('transformer-thumb')) return;
    e.preventDefault();
    this.#rove(to.row, to.col)?.focus();
  }

  destroy(): void {
    for (const row of this.#thumbs) for (const thumb of row) thumb.drawer?.destroy();
  }
}
