// The "ask the model why" panel (translate-why.ts), loaded on first use: the article mounts it,
// and pages that never show it (the widgets) never download its code. Calls made before the code
// arrived are replayed (the last translation shown).
import type { WhyView } from './translate-why';
import { el } from './dom';

type ShowArgs = Parameters<WhyView['show']>;

export class LazyWhyView {
  readonly #slot = el('div');
  #view: WhyView | null = null;
  #pending: ShowArgs | null = null;
  #dead = false;

  constructor(host: HTMLElement, t: (key: string) => string) {
    host.append(this.#slot);
    void import('./translate-why')
      .then(({ WhyView }) => {
        if (this.#dead) return;
        this.#view = new WhyView(this.#slot, t);
        if (this.#pending) this.#view.show(...this.#pending);
      })
      .catch(() => this.#slot.remove()); // no panel rather than a broken one
  }

  show(...args: ShowArgs): void {
    this.#pending = args;
    this.#view?.show(...args);
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
