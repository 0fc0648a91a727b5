// §3.3's decoding view: one translation played step by step. At step k the source words are shaded
// by step k's attention, the output grows by one word, the top-k candidates of step k are listed
// (translate-topk.ts), and the attention heatmap grows by one row. With beam search, a table per
// step lists the kept beams (word, score, parent), the best hypothesis's path marked; the view
// follows that path.
// Source, step and map are linked by one selection (step, source word): the step played selects its
// row; a cell pointed at, tapped or walked to in the map shades the source by that step's attention,
// marks its word and the step's word in the translation, and the header, candidates and line under
// the source name that step; pointing at a source word marks its cell in the step's row.
import type { BeamNode, DecodeStep, TranslateResult } from '#types/seq2seq';
import { COLOUR_COLUMN_WIDTH, Heatmap } from '../heatmap/heatmap';
import { CellSelection, link, type CellRef } from '../heatmap/heatmap-cells';
import { fill } from '../i18n';
import { el } from './dom';
import { distinctLabels } from './token-labels';
import { argmax, sourceChips, sourceList, StepPlayer } from './translate-step-player';
import { CandidateList } from './translate-topk';
import type { RovingFocus } from './keyboard';

const PLAY_MS = 450;
/** What one step of either decoder shows. */
interface StepView {
  token: string;
  attention: Float32Array;
  top: { token: string; prob: number }[];
}

/** The node of each step on the best hypothesis's path (root first). */
export function bestPath(steps: readonly (readonly Pick<BeamNode, 'parent'>[])[], lastStep: number, lastNode: number): number[] {
  const path: number[] = [];
  let node = lastNode;
  for (let t = lastStep; t >= 0 && node >= 0; t--) {
    path.unshift(node);
    node = steps[t][node].parent;
  }
  return path;
}

export class DecodeView {
  readonly element = el('div', 'translate-decode');
  readonly #t: (key: string) => string;
  readonly #progress = el('p', 'translate-decode-progress');
  readonly #source = el('div', 'translate-source');
  readonly #sourceFocus: RovingFocus;
  readonly #output = el('output', 'translate-output');
  readonly #topk: CandidateList;
  readonly #heatmap: Heatmap;
  readonly #noAttention = el('p', 'translate-note');
  readonly #beams = el('div', 'translate-beams');
  readonly #player: StepPlayer;
  #result: TranslateResult | null = null;
  #views: StepView[] = [];
  #path: number[] = [];
  #joiner = ' ';
  #hasAttention = true;
  /** (output step, source word) that the source, the map and the line under them show */
  readonly #selection = new CellSelection();
  readonly #link = el('p', 'translate-link');
  readonly #stopLink: () => void;

  /** `id`: the map's element id, one per view on the page */
  constructor(host: HTMLElement, t: (key: string) => string, id = 'translate-attention') {
    this.#t = t;
    this.#player = new StepPlayer({
      view: this.element,
      progress: this.#progress,
      t,
      keys: { play: 'translate.decode.play', step: 'translate.decode.step', restart: 'translate.decode.restart', progress: 'translate.decode.progress', waiting: 'translate.decode.waiting' },
      testPrefix: 'translate-decode',
      className: 'translate-decode-controls',
      ms: PLAY_MS,
      total: () => this.#views.length,
      loaded: () => this.#result !== null,
      render: (pos) => this.#render(pos),
    });
    const controls = this.#player.controls;
    this.#output.dataset.testid = 'translate-output';
    this.#output.lang = 'en'; // the models write English (dates: ISO digits): data in the target language
    // the translation is said when it changes (a new one, or a step of the decoding)
    this.#output.setAttribute('aria-live', 'polite');
    this.#output.setAttribute('aria-atomic', 'true');
    this.#source.dataset.testid = 'translate-source';
    this.#sourceFocus = sourceList(this.#source, t('translate.source'));
    this.#beams.dataset.testid = 'translate-beams';
    const outRow = el('p', 'translate-output-row');
    outRow.append(el('span', 'translate-label', t('translate.output')), this.#output);
    const panels = el('div', 'translate-decode-panels');
    const left = el('div');
    const right = el('div');
    this.#topk = new CandidateList(left, t);
    this.#heatmap = new Heatmap(right, {
      id,
      title: t('translate.heatmap'),
      fixedRange: [0, 1],
      xTitle: t('translate.axis.source'),
      yTitle: t('translate.axis.output'),
      t,
      minColumnWidth: COLOUR_COLUMN_WIDTH,
    });
    right.append(this.#noAttention);
    this.#noAttention.textContent = t('translate.noAttention');
    this.#link.dataset.testid = 'translate-step-link';
    const same = (cell: CellRef) => cell;
    this.#stopLink = link(this.#selection, this.#heatmap, same, same);
    this.#selection.subscribe((cell) => this.#showStep(cell));
    panels.append(left, right);
    this.element.append(
      el('h3', undefined, t('translate.decode')),
      controls,
      this.#progress,
      el('p', 'translate-label', t('translate.source')),
      this.#source,
      outRow,
      this.#link,
      panels,
      this.#beams,
    );
    host.append(this.element);
    this.#player.go(0);
  }

  /** Shows a new translation, whole (the reader steps or plays it). */
  show(result: TranslateResult, tokenizer: 'words' | 'chars', hasAttention: boolean): void {
    this.#result = result;
    this.#joiner = tokenizer === 'chars' ? '' : ' ';
    this.#hasAttention = hasAttention;
    if (result.beams) {
      const best = result.beams.hypotheses[0];
      this.#path = best ? bestPath(result.beams.steps, best.step, best.node) : [];
      this.#views = this.#path.map((node, step) => result.beams!.steps[step][node]);
    } else {
      this.#path = [];
      this.#views = (result.steps ?? []).map((s: DecodeStep) => s);
    }
    this.#renderBeams(0);
    this.#player.show();
  }

  /** the reader is going through the decoding (it plays, or stands before its end): a new one would jump away */
  get browsing(): boolean {
    return this.#result !== null && (this.#player.running || this.#player.pos < this.#views.length);
  }

  /** No translation shown; `waiting`: the key of what its progress line says meanwhile (StepPlayer.rewind). */
  clear(waiting?: string): void {
    this.#result = null;
    this.#views = [];
    this.#player.rewind(waiting);
  }

  destroy(): void {
    this.#player.stop();
    this.#stopLink();
    this.#heatmap.destroy();
  }

  /** Step `pos` of the translation shown (the player has set the progress line). */
  #render(pos: number): void {
    const t = this.#t;
    const r = this.#result;
    const total = this.#views.length;

    const current = pos > 0 ? this.#views[pos - 1] : null;
    const shown = this.#views.slice(0, pos).map((v) => v.token).filter((tok) => tok !== '<eos>');
    const text = r && pos === total ? r.text : shown.join(this.#joiner);
    if (text === shown.join(this.#joiner)) {
      // one element a step's word, so that the selected step marks its word in the line too
      this.#output.replaceChildren(...shown.flatMap((tok, i) => [...(i > 0 ? [this.#joiner] : []), el('span', 'translate-output-word', tok)]));
    } else {
      this.#output.value = text;
    }
    this.#output.dataset.eos = current?.token === '<eos>' ? '1' : '0';

    if (!current) this.#topk.update({ top: [], chosen: '', step: 0 });

    const rows = this.#views.slice(0, pos);
    const showMap = this.#hasAttention && rows.length > 0 && r !== null;
    this.#heatmap.element.hidden = !showMap;
    this.#noAttention.hidden = this.#hasAttention || r === null;
    if (showMap) {
      const cols = r.source.length;
      const values = new Float32Array(rows.length * cols);
      rows.forEach((v, i) => values.set(v.attention.subarray(0, cols), i * cols));
      this.#heatmap.update({
        rows: rows.length,
        cols,
        values,
        rowLabels: distinctLabels(rows.map((v) => v.token), this.#t),
        rowLang: 'en',
        colLabels: distinctLabels(r.source.map((s) => (s.text === ' ' ? '␣' : s.text)), this.#t),
      });
    }
    if (r?.beams) this.#renderBeams(pos);
    // the step played is the one selected, at its strongest source word
    const cols = r?.source.length ?? 0;
    const strongest = current && this.#hasAttention && cols > 0 ? argmax(current.attention.subarray(0, cols)) : -1;
    this.#selection.select(strongest >= 0 ? { row: pos - 1, col: strongest } : null);
    // without attention nothing is selected: the candidates are the step played's
    if (current && strongest < 0) this.#showCandidates(pos - 1);
  }

  /** The source shaded by the selected step's attention, its word marked, the step in words, and the header names that step. */
  #showStep(cell: CellRef | null): void {
    const t = this.#t;
    const r = this.#result;
    // no cell selected (Escape): the step played, nothing marked
    const step = this.#hasAttention ? this.#views[cell?.row ?? this.#player.pos - 1] : undefined;
    // the candidates follow the selected step too (else the step played), so one step is on screen
    this.#showCandidates(cell?.row ?? this.#player.pos - 1);
    this.#player.label((cell?.row ?? this.#player.pos - 1) + 1);
    const chips = sourceChips(r?.source ?? [], step ? step.attention : null, 'translate', t('translate.unknown'));
    chips.forEach((chip, i) => {
      if (!step || !cell) return;
      chip.classList.toggle('linked', i === cell.col);
      chip.addEventListener('mouseenter', () => this.#selection.hover({ row: cell.row, col: i }));
      chip.addEventListener('mouseleave', () => this.#selection.hover(null));
    });
    this.#sourceFocus.update(() => this.#source.replaceChildren(...chips));
    // the step's word in the translation line (none for <eos>, which writes none)
    this.#output.querySelectorAll('.translate-output-word').forEach((w, i) => w.classList.toggle('linked', !!step && i === cell?.row));
    if (!step || !cell || !r || cell.col >= r.source.length) {
      this.#link.textContent = '';
      delete this.#link.dataset.cell;
      return;
    }
    const word = r.source[cell.col].text;
    this.#link.textContent = fill(t('translate.link'), { step: cell.row + 1, token: step.token, source: word === ' ' ? '␣' : word, w: step.attention[cell.col].toFixed(4) });
    this.#link.dataset.cell = `${cell.row},${cell.col}`;
  }

  /** The candidates of step `row` (0-based), titled with its number and word; none for no such step. */
  #showCandidates(row: number): void {
    const v = this.#views[row];
    if (v) this.#topk.update({ top: v.top, chosen: v.token, step: row + 1 });
  }

  /** One table per decoded step up to `pos`: every kept beam's word, score and parent. */
  #renderBeams(pos: number): void {
    const r = this.#result;
    this.#beams.hidden = !r?.beams;
    if (!r?.beams) {
      this.#beams.replaceChildren();
      return;
    }
    const t = this.#t;
    const steps = r.beams.steps.slice(0, Math.max(pos, 0));
    const tables = steps.map((nodes, step) => {
      const table = el('table', 'translate-beam-table');
      table.dataset.step = String(step);
      const cap = el('caption', undefined, `${t('translate.beam.step')} ${step + 1}`);
      const head = el('tr');
      for (const key of ['translate.beam.token', 'translate.beam.score', 'translate.beam.parent']) head.append(el('th', undefined, t(key)));
      table.append(cap, head);
      nodes.forEach((n, i) => {
        const row = el('tr');
        if (this.#path[step] === i) row.className = 'best';
        const parent = n.parent < 0 ? t('translate.beam.root') : `#${n.parent + 1} ${r.beams!.steps[step - 1][n.parent].token}`;
        const word = el('td', undefined, `#${i + 1} ${n.token}${n.finished ? ' ■' : ''}`);
        const from = el('td', undefined, parent);
        word.lang = 'en'; // the words the model wrote: data in the target language
        if (n.parent >= 0) from.lang = 'en';
        row.append(word, el('td', undefined, n.score.toFixed(3)), from);
        table.append(row);
      });
      return table;
    });
    this.#beams.replaceChildren(el('p', 'translate-label', t('translate.beams')), ...tables);
  }
}
