// §5's "What the heads learned": a table of every layer × head with four detectors' scores (the
// mean attention weight on each detector's targets, docs/gpt.md), updated with the samples every
// 100 steps, and a "Zero" toggle per row. Zeroed heads (gpt_zero in the state, so in
// the link) are used by the step-by-step generation too; here the run's latest sample is shown
// with and without them, so the reader sees the form break or hold.
import { fill } from '../i18n';
import type { SectionContext } from '../section';
import type { GptHeadScores } from '#types/gpt';
import { button, el, errorText, MessageLine, setText } from './dom';
import { charLabel } from './gpt-generate';
import { POEM_START, sampleForm, samplePoem } from '../../../wasm/js/gpt-form.mjs';
import { sampleOptions, type GptRun, type Milestone } from './gpt-run';

export const DETECTORS = ['previous', 'lineBack', 'lineStart', 'induction'] as const;

export type HeadRef = [layer: number, head: number];

/**
 * gpt_zero's text ("1.2,2.4": layer.head from 1) as [layer, head] pairs from 0, or the first
 * entry that is not a head of a model with `layers` × `heads`.
 */
export function parseZeroHeads(text: string, layers: number, heads: number): { heads: HeadRef[] } | { bad: string } {
  const out: HeadRef[] = [];
  for (const raw of text.split(',')) {
    const entry = raw.trim();
    if (entry === '') continue;
    const m = /^(\d+)\.(\d+)$/.exec(entry);
    const layer = m ? Number(m[1]) : 0;
    const head = m ? Number(m[2]) : 0;
    if (!m || layer < 1 || layer > layers || head < 1 || head > heads) return { bad: entry };
    if (!out.some(([l, h]) => l === layer - 1 && h === head - 1)) out.push([layer - 1, head - 1]);
  }
  return { heads: out };
}

/** Pairs from 0 back to gpt_zero's text, in layer and head order. */
export function formatZeroHeads(heads: readonly HeadRef[]): string {
  return [...heads]
    .sort((a, b) => a[0] - b[0] || a[1] - b[1])
    .map(([l, h]) => `${l + 1}.${h + 1}`)
    .join(',');
}

export class GptHeads {
  readonly element = el('div', 'gpt-heads');
  readonly #ctx: SectionContext;
  #run: GptRun;
  readonly #table = el('table', 'gpt-heads-table');
  readonly #message = new MessageLine('gpt-heads-message');
  /** what the table says, read against the even spread */
  readonly #verdict = el('p', 'gpt-note');
  readonly #plain = el('p', 'gpt-heads-sample');
  readonly #zeroed = el('p', 'gpt-heads-sample');
  /** what the drawn table and zeroed sample show: redraw only when it changes */
  #drawn = '';
  /** counts zeroed-sample requests: an older answer is dropped */
  #request = 0;


  constructor(ctx: SectionContext, run: GptRun) {
    this.#ctx = ctx;
    this.#run = run;
    const { t } = ctx;
    this.#table.dataset.testid = 'gpt-heads-table';
    this.#message.element.dataset.testid = 'gpt-heads-message';
    this.#plain.dataset.testid = 'gpt-heads-plain';
    this.#zeroed.dataset.testid = 'gpt-heads-zeroed';
    this.#plain.lang = 'zh';
    this.#zeroed.lang = 'zh';
    const box = el('div', 'gpt-heads-box');
    box.append(this.#table);
    this.#verdict.dataset.testid = 'gpt-heads-verdict';
    this.element.append(el('p', 'gpt-note', t('gpt.heads.about')), box, this.#verdict, this.#message.element, this.#plain, this.#zeroed);
    this.draw();
  }

  /** The zeroed heads of the state for this model, or null (with the message shown) when the link names one it lacks. */
  zeroHeads(): HeadRef[] | null {
    const config = this.#run.info?.config;
    const parsed = parseZeroHeads(this.#ctx.state.get('gpt_zero'), config?.layers ?? 2, config?.heads ?? 4);
    if ('bad' in parsed) return null;
    return parsed.heads;
  }

  #toggle(layer: number, head: number): void {
    const zeroed = this.zeroHeads() ?? [];
    const on = zeroed.some(([l, h]) => l === layer && h === head);
    const next = on ? zeroed.filter(([l, h]) => l !== layer || h !== head) : [...zeroed, [layer, head] as HeadRef];
    this.#ctx.state.set('gpt_zero', formatZeroHeads(next));
  }

  /** Redraws from the run's latest milestone and the state's zeroed heads. */
  draw(): void {
    const { t, state } = this.#ctx;
    const milestone = this.#run.milestones.at(-1);
    const zeroText = state.get('gpt_zero');
    const key = `${milestone?.step ?? -1}|${this.#run.milestones.length}|${zeroText}|${this.#run.info ? 1 : 0}`;
    if (key === this.#drawn) return;
    this.#drawn = key;
    const config = this.#run.info?.config;
    const parsed = parseZeroHeads(zeroText, config?.layers ?? 2, config?.heads ?? 4);
    if ('bad' in parsed) this.#message.show('error', fill(t('gpt.heads.bad'), { entry: parsed.bad, layers: config?.layers ?? 2, heads: config?.heads ?? 4 }));
    else if (this.#message.element.dataset.kind === 'error') this.#message.show('info', '');
    const zeroed = 'bad' in parsed ? [] : parsed.heads;
    this.element.dataset.zeroed = formatZeroHeads(zeroed);
    this.#drawTable(milestone?.heads ?? null, zeroed);
    this.element.dataset.scoredAt = milestone ? String(milestone.step) : '';
    this.#drawSamples(milestone ?? null, zeroed);
  }

  #drawTable(scores: GptHeadScores | null, zeroed: readonly HeadRef[]): void {
    const { t } = this.#ctx;
    // a toggle pressed from the keyboard keeps the focus across the redraw
    const active = (this.element.getRootNode() as Document | ShadowRoot).activeElement;
    const focused = active instanceof HTMLElement && this.#table.contains(active) ? active.dataset.testid : undefined;
    const head = el('tr');
    for (const key of ['gpt.heads.layerHead', ...DETECTORS.map((d) => `gpt.heads.${d}`), 'gpt.heads.zero']) {
      const th = el('th', undefined, t(key));
      th.scope = 'col';
      head.append(th);
    }
    const rows: HTMLElement[] = [];
    const layers = scores?.layers ?? this.#run.info?.config.layers ?? 0;
    const heads = scores?.heads ?? this.#run.info?.config.heads ?? 0;
    for (let l = 0; l < layers; l++) {
      for (let h = 0; h < heads; h++) {
        const tr = el('tr');
        const th = el('th', undefined, `${l + 1}.${h + 1}`);
        th.scope = 'row';
        tr.append(th);
        for (const d of DETECTORS) {
          const value = scores ? scores[d].data[l * heads + h] : null;
          const td = el('td', 'gpt-heads-score', value === null ? '–' : value.toFixed(2));
          if (value !== null) td.style.setProperty('--score', String(value));
          td.dataset.detector = d;
          tr.append(td);
        }
        const on = zeroed.some(([zl, zh]) => zl === l && zh === h);
        const toggle = button(t('gpt.heads.zero'), `gpt-zero-${l + 1}-${h + 1}`, () => this.#toggle(l, h));
        toggle.setAttribute('aria-pressed', String(on));
        toggle.setAttribute('aria-label', fill(t('gpt.heads.zeroLabel'), { layer: l + 1, head: h + 1 }));
        const cell = el('td');
        cell.append(toggle);
        tr.append(cell);
        if (on) tr.classList.add('gpt-heads-zeroed');
        rows.push(tr);
      }
    }
    const thead = el('thead');
    thead.append(head);
    const tbody = el('tbody');
    tbody.append(...rows);
    // the baseline each score is read against: a head spreading its weight evenly
    const even = el('tr', 'gpt-heads-even');
    even.dataset.testid = 'gpt-heads-even';
    const evenHead = el('th', undefined, t('gpt.heads.even'));
    evenHead.scope = 'row';
    even.append(evenHead);
    for (const d of DETECTORS) {
      const td = el('td', undefined, scores ? scores.even[d].toFixed(2) : '–');
      td.dataset.detector = d;
      even.append(td);
    }
    even.append(el('td'));
    const tfoot = el('tfoot');
    tfoot.append(even);
    this.#table.replaceChildren(el('caption', undefined, fill(t('gpt.heads.caption'), { step: this.#run.milestones.at(-1)?.step ?? 0 })), thead, tbody, tfoot);
    if (focused) this.#table.querySelector<HTMLElement>(`[data-testid="${focused}"]`)?.focus();
    this.#drawVerdict(scores);
  }

  /** Names every score at twice its detector's even spread or more, or says there is none. */
  #drawVerdict(scores: GptHeadScores | null): void {
    const { t } = this.#ctx;
    this.#verdict.hidden = !scores;
    if (!scores) return;
    const items: string[] = [];
    for (let i = 0; i < scores.layers * scores.heads; i++) {
      for (const d of DETECTORS) {
        const ratio = scores[d].data[i] / scores.even[d];
        if (ratio >= 2) {
          const head = `${Math.floor(i / scores.heads) + 1}.${(i % scores.heads) + 1}`;
          items.push(fill(t('gpt.heads.verdict.item'), { head, detector: t(`gpt.heads.${d}`).replace(/\u200b/g, ''), ratio: ratio.toFixed(1) }));
        }
      }
    }
    setText(this.#verdict, items.length === 0 ? t('gpt.heads.verdict.none') : fill(t('gpt.heads.verdict.some'), { list: items.join(t('field.separator')) }));
  }

  /** The milestone's sample, and the same draw with the zeroed heads when there are any. */
  #drawSamples(milestone: Milestone | null, zeroed: readonly HeadRef[]): void {
    const { t } = this.#ctx;
    const nl = t('gpt.newline');
    const show = (s: string) => Array.from(s, (c) => charLabel(c, nl)).join('');
    const request = ++this.#request;
    this.#zeroed.hidden = zeroed.length === 0 || !milestone;
    this.#plain.hidden = !milestone;
    delete this.#zeroed.dataset.text;
    if (!milestone) return;
    const first = milestone.samples[0];
    setText(this.#plain, fill(t('gpt.heads.plain'), { step: milestone.step, text: show(first.poem) }));
    this.#plain.dataset.text = first.poem;
    if (zeroed.length === 0) return;
    const names = formatZeroHeads(zeroed);
    setText(this.#zeroed, fill(t('gpt.heads.zeroedSample'), { heads: names, text: '…' }));
    const model = this.#run.model;
    if (!model) return;
    model
      .sample(POEM_START, { ...sampleOptions(first.seed), zeroHeads: [...zeroed] })
      .then((r) => {
        if (request !== this.#request) return;
        const poem = samplePoem(r.generated) ?? r.generated;
        // whether the zeroed head's draw still has the form, in the samples' words
        const form = t(sampleForm(r.generated).ok ? 'gpt.form.yes' : 'gpt.form.no');
        setText(this.#zeroed, `${fill(t('gpt.heads.zeroedSample'), { heads: names, text: show(poem) })} (${form})`);
        this.#zeroed.dataset.text = poem;
      })
      .catch((err: unknown) => {
        if (request === this.#request) this.#message.show('error', `${t('error.prefix')}${errorText(err)}`);
      });
  }

  /** A new model (Reset). */
  setRun(run: GptRun): void {
    this.#run = run;
    this.#drawn = '';
    this.draw();
  }
}
