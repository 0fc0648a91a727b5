// §4's three grids (encoder self, decoder causal self, cross: transformer-grid.ts) under their one
// colour legend, and the enlarged map: the full heatmap of the map the reader clicked (transformer_zoom,
// transformer_zoom_layer, transformer_zoom_head), with labelled axes, values on hover and focus, and export.
import { COLOUR_COLUMN_WIDTH, Heatmap, type CellEvent } from '../heatmap/heatmap';
import { legendGradient } from '../heatmap/heatmap-color';
import { fill } from '../i18n';
import type { AppState } from '../state';
import { button, el } from './dom';
import { AttentionGrid } from './transformer-grid';
import { ATTENTION_KINDS, type AttentionKind, type KindMaps } from './transformer-maps';

type T = (key: string) => string;

export class AttentionGrids {
  readonly #t: T;
  readonly #state: AppState;
  readonly #grids: Record<AttentionKind, AttentionGrid>;
  readonly #zoomBox = el('div', 'transformer-zoom');
  /** the enlarged map, its kind, and the layer and head it shows (the state's, within the model's) */
  #zoom: { kind: AttentionKind; map: Heatmap; layer: number; head: number } | null = null;
  #maps: Record<AttentionKind, KindMaps> | null = null;
  readonly #onCell: (kind: AttentionKind, layer: number, head: number, event: CellEvent) => void;

  /** `onZoom(text)`: the narration of an enlargement; `onCell`: a cell of the enlarged map (of layer, head) pointed at or chosen */
  constructor(host: HTMLElement, t: T, state: AppState, onZoom: (text: string) => void, onCell: (kind: AttentionKind, layer: number, head: number, event: CellEvent) => void) {
    this.#t = t;
    this.#state = state;
    const legend = el('p', 'transformer-legend');
    const bar = el('span', 'transformer-legend-bar');
    bar.style.backgroundImage = legendGradient(false);
    // 0, the bar and 1 wrap as one piece, so that a narrow column never parts 0 from its bar
    const scale = el('span', 'transformer-legend-scale');
    scale.append(el('span', undefined, '0'), bar, el('span', undefined, '1'));
    legend.append(el('span', undefined, t('transformer.grid.scale')), scale);
    const grids = el('div', 'transformer-grids');
    const pick = (kind: AttentionKind, l: number, h: number) => {
      const same = state.get('transformer_zoom') === kind && state.get('transformer_zoom_layer') === l && state.get('transformer_zoom_head') === h;
      if (!same) onZoom(fill(t('transformer.narrate.zoom'), { kind: t(`transformer.kind.${kind}`), l, h }));
      state.update(same ? { transformer_zoom: 'none' } : { transformer_zoom: kind, transformer_zoom_layer: l, transformer_zoom_head: h });
    };
    this.#grids = {
      encoder: new AttentionGrid(grids, t, 'encoder', pick),
      decoder: new AttentionGrid(grids, t, 'decoder', pick),
      cross: new AttentionGrid(grids, t, 'cross', pick),
    };
    this.#onCell = onCell;
    this.#zoomBox.dataset.testid = 'transformer-zoom';
    host.append(legend, el('p', 'transformer-note', t('transformer.zoom.hint')), grids, this.#zoomBox);
  }

  /** A translation's maps (null: none to show). */
  show(maps: Record<AttentionKind, KindMaps> | null): void {
    this.#maps = maps;
    this.render();
  }

  /** Redraws the grids and the enlarged map from the state; a layer or head the model lacks shows its last one. */
  render(): void {
    const t = this.#t;
    const state = this.#state;
    const kind = state.get('transformer_zoom');
    for (const k of ATTENTION_KINDS) this.#grids[k].update(this.#maps?.[k] ?? null, kind === k ? [state.get('transformer_zoom_layer'), state.get('transformer_zoom_head')] : null);
    const maps = kind === 'none' ? null : this.#maps?.[kind];
    if (kind === 'none' || !maps || maps.maps[0][0].rows === 0) {
      this.#zoom?.map.destroy();
      this.#zoom = null;
      this.#zoomBox.replaceChildren();
      this.#zoomBox.hidden = true;
      return;
    }
    const l = Math.min(state.get('transformer_zoom_layer'), maps.layers);
    const h = Math.min(state.get('transformer_zoom_head'), maps.heads);
    if (this.#zoom?.kind !== kind) {
      this.#zoom?.map.destroy();
      this.#zoomBox.replaceChildren();
      const map = new Heatmap(this.#zoomBox, {
        id: 'transformer-zoom-map',
        title: '',
        fixedRange: [0, 1],
        xTitle: kind === 'cross' ? t('transformer.axis.source') : t('transformer.axis.keys'),
        yTitle: t('transformer.axis.queries'),
        t,
        minColumnWidth: COLOUR_COLUMN_WIDTH,
      });
      map.onCell((event) => this.#zoom && this.#onCell(kind, this.#zoom.layer, this.#zoom.head, event));
      this.#zoomBox.append(button(t('transformer.zoom.close'), 'transformer-zoom-close', () => state.set('transformer_zoom', 'none')));
      this.#zoom = { kind, map, layer: l, head: h };
    }
    Object.assign(this.#zoom, { layer: l, head: h });
    this.#zoomBox.hidden = false;
    Object.assign(this.#zoomBox.dataset, { kind, layer: String(l), head: String(h) });
    this.#zoom.map.title = fill(t('transformer.zoom.title'), { kind: t(`transformer.kind.${kind}`), l, h });
    this.#zoom.map.update(maps.maps[l - 1][h - 1]);
  }

  destroy(): void {
    for (const k of ATTENTION_KINDS) this.#grids[k].destroy();
    this.#zoom?.map.destroy();
  }
}
