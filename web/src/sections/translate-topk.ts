// §3.3's candidates at one decoding step: the decoder's top-k next tokens as a list, most probable
// first, each with its probability as text and a bar as wide as the probability, the chosen token's
// bar darker and said in words. An HTML list, not a chart: it reads as it is with any input (mouse,
// keyboard, touch, screen reader), follows the page's colours (translate.css), and keeps Chart.js
// (about 44 KB gzip) off a page until the training curves need it.
import type { TokenProb } from '#shared/types/seq2seq';
import { downloadCsv, downloadJson, exportButtons } from '../export';
import { fill } from '../i18n';
import { el } from './dom';

/** A token as the list shows it: a space would be invisible. */
const shown = (token: string): string => (token === ' ' ? '␣' : token);

export class CandidateList {
  readonly element = el('figure', 'tr-topk');
  readonly #title = el('span', 'tr-topk-title');
  readonly #list = el('ol', 'tr-topk-list');
  readonly #t: (key: string) => string;
  readonly #menu: HTMLElement;
  #top: readonly TokenProb[] = [];
  #chosen = '';
  #step = 0;

  constructor(host: HTMLElement, t: (key: string) => string) {
    this.#t = t;
    this.#title.textContent = t('tr.topk');
    this.#list.setAttribute('aria-label', t('tr.topkLabel'));
    this.#list.dataset.testid = 's2s-candidates';
    // without list markers Safari no longer says it is a list
    this.#list.setAttribute('role', 'list');
    // nothing to export before the first step
    this.#menu = exportButtons(t, { csv: () => this.#csv(), json: () => this.#json() }, t('tr.topkLabel'));
    this.#menu.hidden = true;
    const caption = el('figcaption');
    caption.append(this.#title, this.#menu);
    this.element.append(caption, this.#list);
    host.append(this.element);
  }

  /** The candidates of step `step` (1-based; 0: none yet), most probable first; `chosen` is the one written. */
  update(top: readonly TokenProb[], chosen: string, step: number): void {
    this.#top = top;
    this.#chosen = chosen;
    this.#step = step;
    this.#title.textContent = step > 0 ? fill(this.#t('tr.topkAt'), { step, token: chosen }) : this.#t('tr.topk');
    this.#menu.hidden = top.length === 0;
    const chosenText = this.#t('tr.topkChosen');
    this.#list.replaceChildren(
      ...top.map((p) => {
        const item = el('li', p.token === chosen ? 'tr-topk-item chosen' : 'tr-topk-item');
        const bar = el('span', 'tr-topk-bar');
        bar.style.setProperty('--p', String(Math.min(1, Math.max(0, p.prob))));
        bar.setAttribute('aria-hidden', 'true');
        // the spaces part the words for a screen reader (a grid lays out no text between its items)
        const token = el('span', 'tr-topk-token', shown(p.token));
        token.lang = 'en'; // a word the model may write: data in the target language
        item.append(token, ' ', bar, el('span', 'tr-topk-prob', p.prob.toFixed(3)));
        if (p.token === chosen) item.append(' ', el('span', 'lab-visually-hidden', chosenText));
        return item;
      }),
    );
  }

  /** The file name of this step's candidates. */
  #name(): string {
    return `s2s-candidates-step-${this.#step}`;
  }

  /** One row per candidate: its probability, and 1 for the chosen one (else 0). */
  #csv(): void {
    const values = this.#top.flatMap((p) => [p.prob, p.token === this.#chosen ? 1 : 0]);
    downloadCsv(this.#name(), this.#top.map((p) => p.token), ['probability', 'chosen'], values);
  }

  #json(): void {
    downloadJson(this.#name(), { step: this.#step, chosen: this.#chosen, candidates: this.#top.map((p) => ({ token: p.token, prob: p.prob })) });
  }
}
