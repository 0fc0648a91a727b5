// §4's decoding, step by step: at output step k the source tokens light up by step k's
// cross-attention (one layer and head, a layer's mean over its heads, or the rollout through every
// layer: the reader picks), the output grows by one token, and a heatmap lists step k's
// cross-attention of every layer and head over the source with the rollout as its last row. Source
// and map are linked by one selection (a row of the map, a source word): a row pointed at, tapped or
// walked to lights the source by that layer and head (a chosen one becomes the reader's choice of
// what lights the source), its word marked; pointing at a source word marks its cell.
import type { SourceToken, TransformerTranslateResult } from '#types/seq2seq';
import { COLOUR_COLUMN_WIDTH, Heatmap } from '../heatmap/heatmap';
import { CellSelection, link, type CellEvent, type CellRef } from '../heatmap/heatmap-cells';
import { fill } from '../i18n';
import { el, field, setOptions } from './dom';
import { argmax, sourceChips, sourceList, StepPlayer } from './translate-step-player';
import type { RovingFocus } from './keyboard';
import { sourceLight, stepMatrix } from './transformer-maps';

type T = (key: string) => string;
const PLAY_MS = 400;
/** The unknown-token message names at most this many distinct tokens, then says how many more. */
const UNKNOWN_LISTED = 6;

/** The source tokens the model did not know, each once with its count ("x ×200"), the rest as "and N more"; '' if none. */
export function unknownList(t: T, source: readonly SourceToken[]): string {
  const counts = new Map<string, number>();
  for (const s of source) if (s.unknown) counts.set(s.text, (counts.get(s.text) ?? 0) + 1);
  const names = [...counts].map(([text, n]) => (n > 1 ? fill(t('transformer.unknown.count'), { token: text === ' ' ? '␣' : text, n }) : text === ' ' ? '␣' : text));
  const listed = names.slice(0, UNKNOWN_LISTED).join(t('transformer.unknown.sep'));
  return names.length > UNKNOWN_LISTED ? fill(t('transformer.unknown.more'), { listed, n: names.length - UNKNOWN_LISTED }) : listed;
}

/** The choices of what lights the source: [layer, head] (0, 0: rollout; l, 0: layer l's mean). */
export function lightChoices(layers: number, heads: number): [number, number][] {
  const out: [number, number][] = [[0, 0]];
  for (let l = 1; l <= layers; l++) {
    out.push([l, 0]);
    for (let h = 1; h <= heads; h++) out.push([l, h]);
  }
  return out;
}

export class TransformerDecodeView {
  readonly element = el('div', 'transformer-decode');
  readonly #t: T;
  readonly #progress = el('p', 'transformer-decode-progress');
  readonly #source = el('div', 'transformer-source');
  readonly #sourceFocus: RovingFocus;
  readonly #output = el('output', 'transformer-output');
  /** beside the output: the source had tokens the model read as <unk>, so the output is a guess */
  readonly #unknownNote = el('p', 'transformer-output-unknown');
  readonly #light = el('select');
  readonly #player: StepPlayer;
  readonly #heatmap: Heatmap;
  #result: TransformerTranslateResult | null = null;
  #joiner = '';
  #layer = 0;
  #head = 0;
  /** (row of the step's map, source word) that the source, the map and the line under them show */
  readonly #selection = new CellSelection();
  /** the step shown before a pointer over the enlarged map moved it (follow), null when none did */
  #beforeHover: number | null = null;
  /** the step the map last showed (-1: none) */
  #renderedStep = -1;
  readonly #link = el('p', 'transformer-link');
  readonly #onLight: (layer: number, head: number) => void;

  /** `onLight`: the reader picked what lights the source (the section stores it in the state) */
  constructor(host: HTMLElement, t: T, onLight: (layer: number, head: number) => void) {
    this.#t = t;
    this.#onLight = onLight;
    this.#player = new StepPlayer({
      view: this.element,
      progress: this.#progress,
      t,
      keys: { play: 'transformer.decode.play', step: 'transformer.decode.step', restart: 'transformer.decode.restart', progress: 'transformer.decode.progress', waiting: 'transformer.decode.waiting' },
      testPrefix: 'transformer-decode',
      className: 'transformer-decode-controls',
      ms: PLAY_MS,
      total: () => this.#total(),
      loaded: () => this.#result !== null,
      render: (pos) => this.#render(pos),
    });
    const controls = this.#player.controls;
    this.#light.dataset.testid = 'transformer-light';
    this.#light.addEventListener('change', () => {
      const [l, h] = this.#light.value.split(',').map(Number);
      onLight(l, h);
    });
    controls.append(field(t('transformer.decode.light'), this.#light));
    this.#output.dataset.testid = 'transformer-output';
    this.#output.lang = 'en'; // the model writes English (dates: ISO digits): data in the target language
    // the translation is said when it changes (a new one, or a step of the decoding)
    this.#output.setAttribute('aria-live', 'polite');
    this.#output.setAttribute('aria-atomic', 'true');
    this.#source.dataset.testid = 'transformer-source';
    this.#sourceFocus = sourceList(this.#source, t('transformer.decode.source'));
    const outRow = el('p', 'transformer-output-row');
    outRow.append(el('span', 'transformer-label', t('transformer.decode.output')), this.#output);
    const mapBox = el('div', 'transformer-step-map');
    this.#heatmap = new Heatmap(mapBox, {
      id: 'transformer-step-cross',
      title: t('transformer.decode.map'),
      fixedRange: [0, 1],
      xTitle: t('transformer.axis.source'),
      yTitle: t('transformer.axis.layerHead'),
      t,
      minColumnWidth: COLOUR_COLUMN_WIDTH,
    });
    this.#link.dataset.testid = 'transformer-link';
    const same = (cell: CellRef) => cell;
    link(this.#selection, this.#heatmap, same, same);
    this.#selection.subscribe((cell, source) => this.#showLight(cell, source));
    this.#unknownNote.dataset.testid = 'transformer-output-unknown';
    this.element.append(el('h3', undefined, t('transformer.decode')), controls, this.#progress, el('p', 'transformer-label', t('transformer.decode.source')), this.#source, outRow, this.#unknownNote, this.#link, mapBox);
    host.append(this.element);
    this.#player.go(0);
  }

  /** The layers and heads to offer, and the current choice. */
  setLight(layers: number, heads: number, layer: number, head: number): void {
    const t = this.#t;
    const options = lightChoices(layers, heads).map(([l, h]) => {
      const text = l === 0 ? t('transformer.light.rollout') : h === 0 ? fill(t('transformer.light.mean'), { l }) : fill(t('transformer.light.head'), { l, h });
      return [`${l},${h}`, text] as const;
    });
    this.#layer = Math.min(layer, layers);
    this.#head = this.#layer === 0 ? 0 : Math.min(head, heads);
    setOptions(this.#light, options, `${this.#layer},${this.#head}`);
    this.#player.go(this.#player.pos);
  }

  /** A new translation, shown whole (the reader steps or plays it). */
  show(result: TransformerTranslateResult, chars: boolean): void {
    this.#result = result;
    this.#beforeHover = null;
    const unknown = result.source.filter((s) => s.unknown).length;
    this.#unknownNote.textContent = unknown ? fill(this.#t('transformer.output.unknown'), { n: unknown, total: result.source.length }) : '';
    this.#joiner = chars ? '' : ' ';
    this.#player.show();
  }

  /**
   * Follows a cell of the enlarged decoder or cross-attention map, whose row r is output step r:
   * pointed at, the decoding shows that step until the pointer leaves; chosen (a click, a tap, the
   * keyboard), it stays there.
   */
  follow(event: CellEvent): void {
    if (!this.#result) return;
    if (event.kind === 'hover') {
      this.#beforeHover ??= this.#player.pos;
      this.#player.stop();
      this.#player.go(event.row + 1);
    } else if (event.kind === 'select') {
      this.#beforeHover = null;
      this.#player.stop();
      this.#player.go(event.row + 1);
    } else if (this.#beforeHover !== null) {
      this.#player.go(this.#beforeHover);
      this.#beforeHover = null;
    }
  }

  /** A translation is shown (the progress line no longer waits for one). */
  get loaded(): boolean {
    return this.#result !== null;
  }

  clear(): void {
    this.#result = null;
    this.#unknownNote.textContent = '';
    this.#player.rewind();
  }

  destroy(): void {
    this.#player.stop();
    this.#heatmap.destroy();
  }

  #total(): number {
    return this.#result?.steps?.length ?? 0;
  }

  /** Step `pos` of the translation shown (the player has set the progress line). */
  #render(pos: number): void {
    const t = this.#t;
    const r = this.#result;
    const total = this.#total();
    const k = pos - 1;
    const steps = r?.steps ?? [];
    const written = steps.slice(0, pos).map((s) => s.token).filter((tok) => tok !== '<eos>');
    this.#output.value = r && pos === total ? r.text : written.join(this.#joiner);
    const m = r && k >= 0 ? stepMatrix(r, k, t, t('transformer.light.rolloutRow'), (l, h) => fill(t('transformer.light.headShort'), { l, h })) : null;
    this.#heatmap.element.hidden = !m;
    if (m) {
      this.#heatmap.title = fill(t('transformer.decode.mapAt'), { step: k + 1, token: steps[k].token });
      this.#heatmap.update(m);
    }
    // the reader's choice of light is the selected row, at the word it lights most (or, on the same
    // step, the word already marked: a new step marks its own strongest word)
    const row = r && k >= 0 ? this.#rowOf(this.#layer, this.#head) : null;
    const light = r && k >= 0 ? sourceLight(r, k, this.#layer, this.#head) : null;
    const kept = k === this.#renderedStep ? this.#selection.selected : null;
    this.#renderedStep = k;
    const col = kept && kept.row === row && kept.col < (r?.source.length ?? 0) ? kept.col : light ? argmax(light) : 0;
    this.#selection.select(row !== null ? { row, col } : null);
  }

  /** The shape of the step's cross-attention: layers and heads (0, 0 before a translation). */
  #shape(): [number, number] {
    const step = this.#result?.steps?.[0];
    return step ? [step.cross.shape[0], step.cross.shape[1]] : [0, 0];
  }

  /** The map's row of a light choice: layer l head h; the rollout is the last row; a layer's mean has none. */
  #rowOf(layer: number, head: number): number | null {
    const [, H] = this.#shape();
    if (layer === 0) return this.#shape()[0] * H;
    return head === 0 ? null : (layer - 1) * H + (head - 1);
  }

  /** The light choice of a map row ([layer, head]; [0, 0]: the rollout). */
  #lightOf(row: number): [number, number] {
    const [L, H] = this.#shape();
    return row >= L * H ? [0, 0] : [Math.floor(row / H) + 1, (row % H) + 1];
  }

  /** The source lit by the selected row (else by the reader's choice), its word marked, the line in words. */
  #showLight(cell: CellRef | null, source: string | null): void {
    const t = this.#t;
    const r = this.#result;
    const k = this.#player.pos - 1;
    const [layer, head] = cell ? this.#lightOf(cell.row) : [this.#layer, this.#head];
    // a row chosen by the reader (not one pointed at) becomes what lights the source
    if (cell && source !== null && cell === this.#selection.selected && (layer !== this.#layer || head !== this.#head)) {
      this.#onLight(layer, head);
      return;
    }
    const light = r && k >= 0 ? sourceLight(r, k, layer, head) : null;
    this.element.dataset.light = light ? JSON.stringify(Array.from(light, (w) => Number(w.toFixed(4)))) : '';
    const chips = sourceChips(r?.source ?? [], light, 'transformer', t('transformer.unknown'));
    chips.forEach((chip, i) => {
      if (!cell) return;
      chip.classList.toggle('linked', i === cell.col);
      chip.addEventListener('mouseenter', () => this.#selection.hover({ row: cell.row, col: i }));
      chip.addEventListener('mouseleave', () => this.#selection.hover(null));
    });
    this.#sourceFocus.update(() => this.#source.replaceChildren(...chips));
    const step = r?.steps?.[k];
    if (!cell || !light || !step || !r || cell.col >= r.source.length) {
      this.#link.textContent = '';
      delete this.#link.dataset.cell;
      return;
    }
    const which = layer === 0 ? t('transformer.light.rollout') : fill(t('transformer.light.head'), { l: layer, h: head });
    const word = r.source[cell.col].text;
    this.#link.textContent = fill(t('transformer.link'), { which, step: k + 1, token: step.token, source: word === ' ' ? '␣' : word, w: light[cell.col].toFixed(4) });
    this.#link.dataset.cell = `${cell.row},${cell.col}`;
  }
}
