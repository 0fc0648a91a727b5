// §3.3's candidates at one decoding step: the decoder's top-k next tokens as a list, most probable
// first, each with its probability as text and a bar as wide as the probability, the chosen token's
// bar darker and said in words. An HTML list, not a chart: it reads as it is with any input (mouse,
// keyboard, touch, screen reader), follows the page's colours (translate.css), and keeps Chart.js
// (about 44 KB gzip) off a page until the training curves need it.
import type { TokenProb } from '#types/seq2seq';
import { Figure } from '../figure';
import { fill } from '../i18n';
import { el } from './dom';

/** A token as the list shows it: a space would be invisible. */
const shown = (token: string): string => (token === ' ' ? '␣' : token);

/** The candidates of step `step` (1-based; 0: none yet), most probable first; `chosen` is the one written. */
export interface Candidates {
  top: readonly TokenProb[];
  chosen: string;
  step: number;
}

export class CandidateList extends Figure<Candidates> {
  readonly element = el('figure', 'translate-topk');
  readonly #list = el('ol', 'translate-topk-list');
  readonly #t: (key: string) => string;
  #top: readonly TokenProb[] = [];
  #chosen = '';
  #step = 0;

  constructor(host: HTMLElement, t: (key: string) => string) {
    super({
      title: t('translate.topk'),
      t,
      heading: { tag: 'span', className: 'translate-topk-title' },
      // the title names the step; the menu keeps one name
      label: t('translate.topkLabel'),
      fileName: () => `translate-candidates-step-${this.#step}`,
      exports: {
        // one row per candidate: its probability, and 1 for the chosen one (else 0)
        table: () => ({
          rowLabels: this.#top.map((p) => p.token),
          colLabels: ['probability', 'chosen'],
          values: this.#top.flatMap((p) => [p.prob, p.token === this.#chosen ? 1 : 0]),
        }),
        json: () => ({ step: this.#step, chosen: this.#chosen, candidates: this.#top.map((p) => ({ token: p.token, prob: p.prob })) }),
      },
    });
    this.#t = t;
    this.#list.setAttribute('aria-label', t('translate.topkLabel'));
    this.#list.dataset.testid = 'translate-candidates';
    // without list markers Safari no longer says it is a list
    this.#list.setAttribute('role', 'list');
    // nothing to export before the first step
    this.menu!.hidden = true;
    const caption = el('figcaption');
    caption.append(this.heading!, this.menu!);
    this.element.append(caption, this.#list);
    host.append(this.element);
  }

  update({ top, chosen, step }: Candidates): void {
    this.#top = top;
    this.#chosen = chosen;
    this.#step = step;
    this.title = step > 0 ? fill(this.#t('translate.topkAt'), { step, token: chosen }) : this.#t('translate.topk');
    this.menu!.hidden = top.length === 0;
    const chosenText = this.#t('translate.topkChosen');
    this.#list.replaceChildren(
      ...top.map((p) => {
        const item = el('li', p.token === chosen ? 'translate-topk-item chosen' : 'translate-topk-item');
        const bar = el('span', 'translate-topk-bar');
        bar.style.setProperty('--p', String(Math.min(1, Math.max(0, p.prob))));
        bar.setAttribute('aria-hidden', 'true');
        // the spaces part the words for a screen reader (a grid lays out no text between its items)
        const token = el('span', 'translate-topk-token', shown(p.token));
        token.lang = 'en'; // a word the model may write: data in the target language
        item.append(token, ' ', bar, el('span', 'translate-topk-prob', p.prob.toFixed(3)));
        if (p.token === chosen) item.append(' ', el('span', 'lab-visually-hidden', chosenText));
        return item;
      }),
    );
  }
}
