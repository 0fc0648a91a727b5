// The "ask the model why" panel (translate-why.ts), loaded on first use: the article mounts it in
// §3.3 and §4, and pages that never show it (the widgets) never download its code, strings or
// stylesheet. Calls made before the code arrived are replayed (the last translation shown).
import type { WhyOptions, WhyView } from './translate-why';
import { importWithStrings, type Lang } from '../i18n';
import { el } from './dom';

type ShowArgs = Parameters<WhyView['show']>;

export class LazyWhyView {
  readonly #slot = el('div');
  #view: WhyView | null = null;
  #pending: ShowArgs | null = null;
  #dead = false;

  /** `gate`: resolves when the view is wanted (its collapsed panel first opens) */
  constructor(host: HTMLElement, ctx: { t: (key: string) => string; lang: Lang }, options: WhyOptions, gate: Promise<void> = Promise.resolve()) {
    host.append(this.#slot);
    // the panel's string table arrives with its code: in the build it is filled per language
    // (web/vite.config.ts), so wait for the page's language before the first label is read
    void gate
      .then(() => importWithStrings(() => import('./translate-why'), ctx.lang))
      .then(({ WhyView }) => {
        if (this.#dead) return;
        this.#view = new WhyView(this.#slot, ctx, options);
        if (this.#pending) this.#view.show(...this.#pending);
      })
      .catch(() => this.#slot.remove()); // no panel rather than a broken one
  }

  show(...args: ShowArgs): void {
    this.#pending = args;
    this.#view?.show(...args);
  }

  /** the state's interventions changed (a link, undo, or the panel itself) */
  linkChanged(): void {
    this.#view?.linkChanged();
  }

  clear(): void {
    this.#pending = null;
    this.#view?.clear();
  }

  destroy(): void {
    this.#dead = true;
    this.#view?.destroy();
  }
}
