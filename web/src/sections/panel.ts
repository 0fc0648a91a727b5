// A named, collapsed panel (<details>/<summary>, styled by design.css .lab-panel) for everything a
// section does beyond its one idea: advanced settings, asking why, own data, model files. Its open
// state is a bool setting of the state table (the `*_open_*` rows), so it is in the link and a
// widget attribute like every other setting. Heavy content renders on first open only (`opened`):
// a reader who never opens the intervention grid never pays for its hundreds of cells.
import type { AppState, PropName } from '../state';
import { el } from './dom';

/** The state table's panel switches: bool settings named <section prefix>_open_<panel>. */
export type PanelSetting = Extract<PropName, `${string}_open_${string}`>;

export class Panel {
  readonly element = el('details', 'lab-panel');
  /** where the panel's content goes (empty until the caller renders into it) */
  readonly body = el('div', 'lab-panel-body');
  /** resolves the first time the panel is open (at once when the link opened it) */
  readonly opened: Promise<void>;
  readonly #state: AppState;
  readonly #name: PanelSetting;
  readonly #unsubscribe: () => void;
  #resolve: () => void = () => {};
  #wasOpened = false;

  constructor(state: AppState, name: PanelSetting, title: string, testId: string) {
    this.#state = state;
    this.#name = name;
    this.opened = new Promise((resolve) => {
      this.#resolve = () => {
        this.#wasOpened = true;
        resolve();
      };
    });
    // the title in one inline box: a glossary term marked in it stays in the line, not a flex item of its own
    const summary = el('summary', 'lab-panel-title');
    summary.append(el('span', 'lab-panel-label', title));
    this.element.dataset.testid = testId;
    this.element.dataset.setting = name;
    this.element.append(summary, this.body);
    this.element.addEventListener('toggle', () => {
      const open = this.element.open;
      if (open) this.#resolve();
      if (state.get(name) !== open) state.set(name, open);
    });
    this.#unsubscribe = state.subscribe((changed) => {
      if (changed.includes(name)) this.#sync();
    });
    this.#sync();
  }

  get open(): boolean {
    return this.element.open;
  }

  /** true once the panel has been open: its content is rendered and kept up to date from then on */
  get wasOpened(): boolean {
    return this.#wasOpened;
  }

  /** Opens the panel (and so records it in the link): e.g. when the link asks for its content. */
  show(): void {
    if (!this.#state.get(this.#name)) this.#state.set(this.#name, true);
  }

  #sync(): void {
    const open = this.#state.get(this.#name) as boolean;
    if (this.element.open !== open) this.element.open = open;
    if (open) this.#resolve();
  }

  destroy(): void {
    this.#unsubscribe();
  }
}
